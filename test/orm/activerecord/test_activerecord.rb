# idgen from ActiveRecord 6.1 (Debian's ruby-activerecord) with ruby-pg.
#
# Models whose primary keys are iuid and distid columns filled by the
# database's DEFAULT; ids read back through RETURNING; lookups with a String
# and an Integer; a foreign key and a join; a bulk insert (insert_all); a
# table range-partitioned by its iuid key.  Connects through the PG*
# environment variables.  Prints "activerecord: N passed, M failed" and exits
# 1 on a failure.
require "active_record"
require "active_record/connection_adapters/postgresql_adapter"
require "bigdecimal"

$passed = 0
$failed = 0

def check(what, ok, detail = "")
  if ok
    $passed += 1
    puts "ok - #{what}"
  else
    $failed += 1
    puts "not ok - #{what}: #{detail}"
  end
end

# README begin: activerecord-types
# iuid reads as a String (a uuid's text), distid as an Integer (up to 94 bits: not
# ActiveModel's 4-byte Integer, which refuses larger values); without this
# map ActiveRecord warns "unknown OID" and reads both as Strings.
module IdgenTypes
  def initialize_type_map(m = type_map)
    super
    m.register_type "iuid", ActiveRecord::ConnectionAdapters::PostgreSQL::OID::Uuid.new
    m.register_type "distid", ActiveModel::Type::BigInteger.new
  end
end
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(IdgenTypes)
# column types for migrations: t.column :id, :iuid
ActiveRecord::ConnectionAdapters::PostgreSQLAdapter::NATIVE_DATABASE_TYPES.merge!(
  iuid: { name: "iuid" }, distid: { name: "distid" })
# README end: activerecord-types

ActiveRecord::Base.establish_connection(adapter: "postgresql") # PGHOST, PGDATABASE ...

# README begin: activerecord-migration
class CreateShop < ActiveRecord::Migration[6.1]
  def change
    create_table :orders, id: :iuid, default: -> { "iuid_generate(42, 1)" } do |t|
      t.text :item, null: false
    end
    create_table :lines, id: :distid, default: -> { "distid_generate()" } do |t|
      t.references :order, type: :iuid, null: false, foreign_key: true
      t.integer :qty, null: false
    end
    # partitioned by its key; partitions for this month and the next two
    create_table :events, id: false, options: "PARTITION BY RANGE (id)" do |t|
      t.column :id, :iuid, null: false, default: -> { "iuid_generate(42, 2)" }
      t.text :payload
    end
    execute "ALTER TABLE events ADD PRIMARY KEY (id)"
    execute <<~SQL
      SELECT idgen_create_partitions('events', date_trunc('month', now(), 'UTC'),
             date_trunc('month', now(), 'UTC') + interval '3 months', '1 month')
    SQL
  end
end

class Order < ActiveRecord::Base
  has_many :lines
end

class Line < ActiveRecord::Base
  belongs_to :order
end

class Event < ActiveRecord::Base
  self.primary_key = "id"
end
# README end: activerecord-migration

def run
  ActiveRecord::Migration.verbose = false
  CreateShop.migrate(:up)
  parts = ActiveRecord::Base.connection.select_value(
    "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass")
  check("the migration made 3 partitions of events", parts == 3, parts)

  # README begin: activerecord-use
  order = Order.create!(item: "tea")          # INSERT ... RETURNING "id": a String
  order.lines.create!(qty: 2)
  order.lines.create!(qty: 3)
  found = Order.find(order.id)
  line_id = found.lines.order(:qty).first.id  # an Integer
  same = Line.find(line_id)
  rows = Line.joins(:order).where(order_id: order.id).order(:qty)
             .pluck("orders.item", :qty, Arel.sql("iuid_country(orders.id)"))
  result = Line.insert_all((1..100).map { |q| { order_id: order.id, qty: q } }, returning: [:id])
  new_ids = result.rows.flatten.map(&:to_i)   # insert_all does not cast: Strings
  # README end: activerecord-use
  check("RETURNING gives the id as a String", order.id.is_a?(String) && order.id =~ /\A\h{8}-/,
        order.id.inspect)
  check("lookup by String finds the order", found.item == "tea", found.inspect)
  check("distid key arrives as Integer", line_id.is_a?(Integer) && line_id > 10**20, line_id.inspect)
  check("lookup by Integer finds the line", same.qty == 2, same.inspect)
  check("lookup by BigDecimal finds the line", Line.find(BigDecimal(line_id)).id == line_id)
  check("join orders-lines with iuid_country", rows == [["tea", 2, 42], ["tea", 3, 42]], rows.inspect)
  check("insert_all returns 100 distinct ids", new_ids.uniq.size == 100, new_ids.first(3).inspect)
  check("bulk ids increase", new_ids == new_ids.sort, new_ids.first(3).inspect)
  check("the order has 102 lines", order.lines.count == 102, order.lines.count)
  check("where(id: [...]) with Strings",
        Order.where(id: [order.id, "017f22e2-79b0-802a-8141-23456789abcd"]).pluck(:item) == ["tea"])
  # a String is sent untyped and read as an iuid: a uuid that is not one is an error
  begin
    Order.find("00000000-0000-4000-8000-000000000000")
    check("a v4 uuid String is refused as iuid input", false, "found")
  rescue ActiveRecord::StatementInvalid => e
    check("a v4 uuid String is refused as iuid input", e.cause.is_a?(PG::InvalidTextRepresentation), e)
  end
  check("includes loads the order by its iuid key",
        Line.includes(:order).find(line_id).order.item == "tea")

  # README begin: activerecord-partitioned
  event = Event.create!(payload: "signed up")
  partition = Event.where(id: event.id).pick(Arel.sql("tableoid::regclass::text")) # events_YYYYMM01
  # README end: activerecord-partitioned
  check("partitioned insert returns the id", event.id.is_a?(String) && event.id.size == 36, event.id.inspect)
  check("the event is in this month's partition", partition.to_s.start_with?("events_2"), partition)
  plan = Event.where(id: event.id).explain
  check("a lookup by String prunes to one partition's index",
        plan.scan(/events_\d{8}/).uniq.size == 1 && plan.include?("Index Cond"), plan)
end

begin
  run
rescue StandardError => e # counted, so that the summary line still comes
  check("the program ran", false, "#{e.class}: #{e.message}")
end

puts "activerecord: #{$passed} passed, #{$failed} failed"
exit($failed.zero? && $passed.positive? ? 0 : 1)
