// Opens an incidents database read-only with DuckDB's official Node.js
// client and reports, as JSON on stdout, what it reads: the DuckDB
// version, each named view's columns (name and type) and row count, and
// the row count of a Parquet export. Usage:
//   node read.mjs DB PARQUET_GLOB VIEW...
import { DuckDBInstance } from '@duckdb/node-api';

const [db, parquet, ...views] = process.argv.slice(2);
const inst = await DuckDBInstance.create(db, { access_mode: 'READ_ONLY' });
const con = await inst.connect();
const one = async (sql) => (await con.runAndReadAll(sql)).getRowsJson()[0][0];
const quote = (name) => '"' + name.replaceAll('"', '""') + '"';

const out = { version: await one('SELECT version()'), views: {} };
for (const v of views) {
  const r = await con.runAndReadAll(`SELECT * FROM main.${quote(v)}`);
  out.views[v] = {
    columns: r.columnNames().map((name, i) => ({ name, type: r.columnType(i).toString() })),
    rows: r.currentRowCount,
  };
}
out.parquet_rows = Number(await one(`SELECT count(*) FROM read_parquet('${parquet.replaceAll("'", "''")}', hive_partitioning=true)`));
out.median_ttr_by_class = (await con.runAndReadAll(
  `SELECT root_cause_class, median(ttr_minutes) FROM main.incidents WHERE ttr_minutes IS NOT NULL GROUP BY ALL ORDER BY 1`)).getRowsJson();
console.log(JSON.stringify(out));
