// Type parsers for the idgen PostgreSQL extension's types with node-postgres.
export interface Queryable {
  query(text: string): Promise<{ rows: any[] }>
}
export interface TypeParsers {
  getTypeParser(oid: number, format?: string): (value: string) => any
}
export interface Client extends Queryable {
  setTypeParser(oid: number, parse: (value: string) => any): void
}
export function registerIdgen(client: Client): Promise<void>
export function idgenTypes(queryable: Queryable, base: TypeParsers): Promise<TypeParsers>
export function parseArray<T>(text: string, parse: (value: string) => T): any[]
