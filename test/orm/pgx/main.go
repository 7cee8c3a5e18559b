// idgen from Go with pgx v4 (Debian's golang-github-jackc-pgx-v4-dev), built
// offline against Debian's packaged libraries (GO111MODULE=off,
// GOPATH=/usr/share/gocode).
//
// Tables whose primary keys are iuid and distid columns filled by the
// database's DEFAULT; ids read back through RETURNING; lookups with a
// [16]byte (pgtype.UUID) and a *big.Int; a foreign key and a join; a bulk
// insert (CopyFrom, binary COPY); a table range-partitioned by its iuid key.
// Connects through the PG* environment variables.  Prints "pgx: N passed,
// M failed" and exits 1 on a failure.
package main

import (
	"context"
	"fmt"
	"math/big"
	"os"
	"regexp"
	"strings"

	"github.com/jackc/pgtype"
	"github.com/jackc/pgx/v4"
)

var passed, failed int

func check(what string, ok bool, detail interface{}) {
	if ok {
		passed++
		fmt.Printf("ok - %s\n", what)
	} else {
		failed++
		fmt.Printf("not ok - %s: %v\n", what, detail)
	}
}

// README begin: pgx-register
// registerIdgen: iuid is a uuid on the wire (16 bytes), so pgtype.UUID reads
// and sends it, binary; distid is read and sent as text (a decimal string).
func registerIdgen(ctx context.Context, conn *pgx.Conn) error {
	var iuidOID, iuidArrayOID, distidOID uint32
	err := conn.QueryRow(ctx, `SELECT 'iuid'::regtype::oid, 'iuid[]'::regtype::oid,
	                                  'distid'::regtype::oid`).Scan(&iuidOID, &iuidArrayOID, &distidOID)
	if err != nil {
		return err
	}
	ci := conn.ConnInfo()
	ci.RegisterDataType(pgtype.DataType{Value: &pgtype.UUID{}, Name: "iuid", OID: iuidOID})
	ci.RegisterDataType(pgtype.DataType{Value: &pgtype.UUIDArray{}, Name: "_iuid", OID: iuidArrayOID})
	ci.RegisterDataType(pgtype.DataType{Value: &pgtype.GenericText{}, Name: "distid", OID: distidOID})
	return nil
}

// README end: pgx-register

func run(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, "") // PGHOST, PGDATABASE ...
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if err := registerIdgen(ctx, conn); err != nil {
		return err
	}
	// README begin: pgx-schema
	_, err = conn.Exec(ctx, `
		CREATE TABLE orders (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 1), item text NOT NULL);
		CREATE TABLE lines (id distid PRIMARY KEY DEFAULT distid_generate(),
		                    order_id iuid NOT NULL REFERENCES orders, qty int NOT NULL);
		CREATE TABLE events (id iuid PRIMARY KEY DEFAULT iuid_generate(42, 2), payload text)
		    PARTITION BY RANGE (id);
		SELECT idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
		       date_trunc('month', now(), 'UTC') + interval '3 months', '1 month');`)
	// README end: pgx-schema
	if err != nil {
		return err
	}
	var parts int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass").Scan(&parts); err != nil {
		return err
	}
	check("idgen_create_partitions made 3 partitions of events", parts == 3, parts)

	// README begin: pgx-use
	var orderID [16]byte // or pgtype.UUID
	err = conn.QueryRow(ctx, "INSERT INTO orders (item) VALUES ($1) RETURNING id", "tea").Scan(&orderID)
	if err != nil {
		return err
	}
	var lineText string // distid: a decimal string, into a *big.Int
	err = conn.QueryRow(ctx, `INSERT INTO lines (order_id, qty) VALUES ($1, 2), ($1, 3)
	                          RETURNING id`, orderID).Scan(&lineText)
	if err != nil {
		return err
	}
	lineID, _ := new(big.Int).SetString(lineText, 10)
	var item string
	err = conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", orderID).Scan(&item)
	if err != nil {
		return err
	}
	var qty int
	err = conn.QueryRow(ctx, "SELECT qty FROM lines WHERE id = $1", lineID.String()).Scan(&qty)
	if err != nil {
		return err
	}
	rows, err := conn.Query(ctx, `SELECT o.item, l.qty, iuid_country(o.id) FROM orders o
	                              JOIN lines l ON l.order_id = o.id WHERE o.id = $1 ORDER BY l.qty`,
		orderID)
	if err != nil {
		return err
	}
	var joined []string
	for rows.Next() {
		var it string
		var q, country int
		if err := rows.Scan(&it, &q, &country); err != nil {
			return err
		}
		joined = append(joined, fmt.Sprintf("%s/%d/%d", it, q, country))
	}
	if rows.Err() != nil {
		return rows.Err()
	}
	bulk := make([][]interface{}, 100) // binary COPY; the ids come from the DEFAULT
	for i := range bulk {
		bulk[i] = []interface{}{orderID, i}
	}
	copied, err := conn.CopyFrom(ctx, pgx.Identifier{"lines"}, []string{"order_id", "qty"},
		pgx.CopyFromRows(bulk))
	// README end: pgx-use
	if err != nil {
		return err
	}
	check("RETURNING scans the iuid into a [16]byte", orderID[6]>>4 == 8, fmt.Sprintf("%x", orderID))
	check("lookup by [16]byte finds the order", item == "tea", item)
	check("distid arrives as a decimal string", lineID != nil && lineID.BitLen() > 64, lineText)
	check("lookup by *big.Int's text finds the line", qty == 2, qty)
	check("join orders-lines with iuid_country",
		strings.Join(joined, ",") == "tea/2/42,tea/3/42", joined)
	check("CopyFrom copies 100 lines", copied == 100, copied)
	var n, distinct int
	conn.QueryRow(ctx, "SELECT count(*), count(DISTINCT id) FROM lines WHERE order_id = $1", orderID).Scan(&n, &distinct)
	check("the order has 102 distinct lines", n == 102 && distinct == 102, n)
	var u pgtype.UUID
	err = conn.QueryRow(ctx, "SELECT id FROM orders WHERE id = ANY($1)",
		[][16]byte{orderID}).Scan(&u)
	check("= ANY($1) with a [][16]byte", err == nil && u.Bytes == orderID, err)

	// README begin: pgx-partitioned
	var eventID pgtype.UUID
	var partition string
	err = conn.QueryRow(ctx, "INSERT INTO events (payload) VALUES ($1) RETURNING id, tableoid::regclass::text",
		"signed up").Scan(&eventID, &partition) // events_YYYYMM01
	// README end: pgx-partitioned
	if err != nil {
		return err
	}
	check("the event is in this month's partition", strings.HasPrefix(partition, "events_2"), partition)
	prows, err := conn.Query(ctx, "EXPLAIN SELECT * FROM events WHERE id = $1", eventID)
	if err != nil {
		return err
	}
	var plan []string
	for prows.Next() {
		var line string
		prows.Scan(&line)
		plan = append(plan, line)
	}
	p := strings.Join(plan, "\n")
	parts2 := map[string]bool{}
	for _, m := range regexp.MustCompile(`events_\d{8}`).FindAllString(p, -1) {
		parts2[m] = true
	}
	check("a lookup by pgtype.UUID prunes to one partition's index",
		len(parts2) == 1 && strings.Contains(p, "Index Cond"), p)
	return nil
}

func main() {
	if err := run(context.Background()); err != nil {
		check("the program ran", false, err)
	}
	fmt.Printf("pgx: %d passed, %d failed\n", passed, failed)
	if failed > 0 || passed == 0 {
		os.Exit(1)
	}
}
