//! The schema's migrations on a database written by an earlier server
//! (schema 1: one namespace of keys): migration 2 scopes keys per App-Name,
//! keeps every existing order readable and updatable by id, and no request
//! replays a key whose application is unknown.

use std::borrow::Cow;

use serde_json::json;
use sqlx::migrate::{Migration, MigrationType, Migrator};

use crate::common::{key, order_body, query_texts, Db, Server, TempDir};

/// A database of its own: a fresh SQLite file, or a new PostgreSQL database
/// beside the test database (dropped at the end).
fn fresh_databases() -> Vec<(Db, Option<(String, String)>)> {
    let mut all = vec![(Db::Sqlite(TempDir::new()), None)];
    if let Ok(url) = std::env::var("SWAPROUTE_TEST_POSTGRES_URL") {
        if !url.is_empty() {
            let name = format!("swaproute_migrate_{}", key());
            run(&url, &format!("CREATE DATABASE {name}"));
            let (base, _) = url.rsplit_once('/').unwrap();
            all.push((Db::Postgres(format!("{base}/{name}")), Some((url, name))));
        }
    }
    all
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn run(url: &str, sql: &str) {
    runtime().block_on(async {
        sqlx::any::install_default_drivers();
        let mut connection = <sqlx::AnyConnection as sqlx::Connection>::connect(url)
            .await
            .unwrap();
        sqlx::raw_sql(sql).execute(&mut connection).await.unwrap();
    });
}

/// Schema 1, as the earlier server left it, through sqlx's migrator (so its
/// bookkeeping is the real one).
fn schema_1(db: &Db) {
    let url = match db {
        Db::Sqlite(_) => format!("{}?mode=rwc", db.url()),
        Db::Postgres(url) => url.clone(),
    };
    runtime().block_on(async {
        sqlx::any::install_default_drivers();
        let pool = sqlx::AnyPool::connect(&url).await.unwrap();
        let migrator = Migrator {
            migrations: Cow::Owned(vec![Migration::new(
                1,
                Cow::Borrowed("orders"),
                MigrationType::Simple,
                Cow::Borrowed(include_str!("../../migrations/0001_orders.sql")),
                false,
            )]),
            ..Migrator::DEFAULT
        };
        migrator.run(&pool).await.unwrap();
        pool.close().await;
    });
}

/// Runs `sql` with text parameters.
fn exec(url: &str, sql: &str, binds: &[&str]) {
    runtime().block_on(async {
        sqlx::any::install_default_drivers();
        let mut connection = <sqlx::AnyConnection as sqlx::Connection>::connect(url)
            .await
            .unwrap();
        let mut query = sqlx::query(sql);
        for bind in binds {
            query = query.bind(*bind);
        }
        query.execute(&mut connection).await.unwrap();
    });
}

#[test]
fn migration_2_scopes_keys_and_keeps_every_order() {
    // Two orders as an earlier server answered them (made here on a
    // throwaway database): one created with a key, one without.
    let scratch = Db::Sqlite(TempDir::new());
    let (keyed, bare, digest) = {
        let server = Server::start(&scratch, &[]);
        let body = order_body("0.5", "16.5", "ExactIn");
        let keyed = server.post_keyed("/v3/orders", "legacy-key", &body);
        let bare = server.post("/v3/orders", &body);
        let digest = query_texts(
            &scratch,
            "SELECT request_digest FROM orders WHERE idempotency_key = $1",
            "legacy-key",
        );
        (keyed, bare, digest[0].clone())
    };
    for (db, cleanup) in fresh_databases() {
        schema_1(&db);
        let insert =
            "INSERT INTO orders (id, idempotency_key, request_digest, body, revision, created_at) \
                      VALUES ($1, $2, $3, $4, 0, 1785000000000)";
        let id = |a: &crate::common::Answer| a.body["id"].as_str().unwrap().to_owned();
        exec(
            &db.url(),
            insert,
            &[&id(&keyed), "legacy-key", &digest, &keyed.text],
        );
        let bare_insert = "INSERT INTO orders (id, body, revision, created_at) \
                           VALUES ($1, $2, 0, 1785000000000)";
        exec(&db.url(), bare_insert, &[&id(&bare), &bare.text]);
        // The new server migrates at start.
        let server = Server::start(&db, &[]);
        let versions = query_texts(
            &db,
            "SELECT CAST(version AS TEXT) FROM _sqlx_migrations WHERE description <> $1 ORDER BY version",
            "",
        );
        assert_eq!(versions, ["1", "2"], "{}", db.name());
        for order in [&keyed, &bare] {
            let path = format!("/v3/orders/{}", id(order));
            let read = server.get(&path);
            assert_eq!(read.status, 200, "{}", db.name());
            assert_eq!(read.body["id"], order.body["id"]);
        }
        // The legacy key replays for no application: a new order, the old
        // one untouched.
        let again = server.post_keyed(
            "/v3/orders",
            "legacy-key",
            &order_body("0.5", "16.5", "ExactIn"),
        );
        assert_eq!(again.status, 201);
        assert_eq!(again.header("idempotent-replayed"), None);
        assert_ne!(again.body["id"], keyed.body["id"]);
        let rows = query_texts(
            &db,
            "SELECT id FROM orders WHERE idempotency_key = $1",
            "legacy-key",
        );
        assert_eq!(rows.len(), 2, "{}", db.name());
        // ... and from now on the key is this application's.
        let replay = server.post_keyed(
            "/v3/orders",
            "legacy-key",
            &order_body("0.5", "16.5", "ExactIn"),
        );
        assert_eq!(replay.text, again.text);
        // A legacy order is still updated by id.
        let path = format!("/v3/orders/{}", id(&keyed));
        assert_eq!(
            server
                .patch(&path, &json!({"transactionId": "0xab"}))
                .status,
            200
        );
        drop(server);
        if let Some((url, name)) = cleanup {
            run(&url, &format!("DROP DATABASE {name}"));
        }
    }
}
