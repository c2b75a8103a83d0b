//! The PostgreSQL migrations build the schema the `SQLite` ones build: the
//! same tables, columns (of corresponding types and nullability) and indexes.
//! Runs when `SHOGI_TEST_POSTGRES` names a server (scripts/test-all.sh sets
//! it); without it the test says so and checks nothing.

mod common;

use std::collections::BTreeMap;

use common::{postgres_admin, with_database, TempDir, POSTGRES_ENV};
use shogi_server::db::Store;
use shogi_server::Location;
use sqlx::Row;

/// Per table: its columns as (name, type class, not null); and the index names.
type Schema = (
    BTreeMap<String, Vec<(String, &'static str, bool)>>,
    Vec<String>,
);

/// The type class of a declared `SQLite` type or a PostgreSQL data type: what
/// the app stores there.
fn class(ty: &str, name: &str, flags: &[&str]) -> &'static str {
    match ty.to_ascii_lowercase().as_str() {
        "integer" if flags.contains(&name) => "flag",
        "boolean" => "flag",
        "integer" | "bigint" | "smallint" => "integer",
        "real" | "double precision" => "real",
        "text" => "text",
        "blob" | "bytea" => "bytes",
        _ => "other",
    }
}

/// The `SQLite` columns that hold 0 or 1 (BOOLEAN in PostgreSQL).
const FLAGS: [&str; 8] = [
    "clock_started",
    "over",
    "rating_annulled",
    "sente_guest",
    "gote_guest",
    "rated",
    "solved",
    "explored",
];

async fn sqlite_schema(path: &std::path::Path) -> Schema {
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let mut flags = FLAGS.to_vec();
    flags.push("first_solved");
    let mut tables = BTreeMap::new();
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for table in names {
        let rows = sqlx::query("SELECT name, type, \"notnull\", pk FROM pragma_table_info($1)")
            .bind(&table)
            .fetch_all(&pool)
            .await
            .unwrap();
        let mut columns: Vec<_> = rows
            .iter()
            .map(|r| {
                let name: String = r.get("name");
                let ty: String = r.get("type");
                let not_null = r.get::<i64, _>("notnull") != 0 || r.get::<i64, _>("pk") != 0;
                let class = class(&ty, &name, &flags);
                (name, class, not_null)
            })
            .collect();
        columns.sort();
        tables.insert(table, columns);
    }
    let mut indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    indexes.sort();
    pool.close().await;
    (tables, indexes)
}

async fn postgres_schema(url: &str) -> Schema {
    let pool = sqlx::PgPool::connect(url).await.unwrap();
    let rows = sqlx::query(
        "SELECT table_name::text AS t, column_name::text AS c, data_type::text AS ty,
                is_nullable::text AS n
         FROM information_schema.columns WHERE table_schema = 'public'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let mut tables: BTreeMap<String, Vec<_>> = BTreeMap::new();
    for r in &rows {
        let name: String = r.get("c");
        let ty: String = r.get("ty");
        let class = class(&ty, &name, &[]);
        let not_null = r.get::<String, _>("n") == "NO";
        tables
            .entry(r.get("t"))
            .or_default()
            .push((name, class, not_null));
    }
    for columns in tables.values_mut() {
        columns.sort();
    }
    // Indexes made by CREATE INDEX (not those of primary keys and UNIQUE).
    let mut indexes: Vec<String> = sqlx::query_scalar(
        "SELECT i.indexname::text FROM pg_indexes i
         WHERE i.schemaname = 'public' AND NOT EXISTS (
             SELECT 1 FROM pg_constraint k WHERE k.conname = i.indexname)",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    indexes.sort();
    pool.close().await;
    (tables, indexes)
}

#[tokio::test]
async fn both_migration_sets_build_the_same_schema() {
    let Ok(server) = std::env::var(POSTGRES_ENV) else {
        eprintln!("{POSTGRES_ENV} is not set: the PostgreSQL schema is not compared");
        return;
    };
    let dir = TempDir::new("schema");
    let file = dir.path().join("schema.db");
    Store::open(&Location::Sqlite(file.clone()))
        .await
        .unwrap()
        .close()
        .await;
    let db = format!("shogi_schema_{}", std::process::id());
    postgres_admin(&server, format!("DROP DATABASE IF EXISTS {db}")).unwrap();
    postgres_admin(&server, format!("CREATE DATABASE {db}")).unwrap();
    let url = with_database(&server, &db);
    Store::open(&Location::Postgres(url.clone()))
        .await
        .unwrap()
        .close()
        .await;

    let (sqlite_tables, sqlite_indexes) = sqlite_schema(&file).await;
    let (pg_tables, pg_indexes) = postgres_schema(&url).await;
    postgres_admin(&server, format!("DROP DATABASE {db} WITH (FORCE)")).unwrap();

    assert!(sqlite_tables.contains_key("games") && sqlite_tables.contains_key("puzzle_attempts"));
    assert_eq!(
        sqlite_tables.keys().collect::<Vec<_>>(),
        pg_tables.keys().collect::<Vec<_>>()
    );
    for (table, columns) in &sqlite_tables {
        if table == "_sqlx_migrations" {
            continue; // sqlx's own bookkeeping, typed per database
        }
        assert_eq!(Some(columns), pg_tables.get(table), "table {table}");
    }
    assert_eq!(sqlite_indexes, pg_indexes);
}
