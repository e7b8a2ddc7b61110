//! Starts the real binary on `127.0.0.1:0` against a real database and talks
//! to it over HTTP. Every test runs against SQLite (a fresh file), and
//! against PostgreSQL when `SWAPROUTE_TEST_POSTGRES_URL` names a database
//! (.ci/run always sets it; without it the PostgreSQL half is skipped with a
//! printed message).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

pub const NOW: u64 = 1_785_000_000_000;
pub const RATES: &str = include_str!("../../../cli/data/rates.json");
/// The rate that wins at 0.5 BTC: 0.5 × 33.20110457 − 0.00215 = 16.598402285
/// (the sponsored and plain `d5b1…` rates give 16.5710…, the expired one is out).
pub const BEST: &str = "eyJwcm92aWRlciI6ImZpeGVkZmxvYXQiLCJwYWlyIjoiQlRDX0VUSCIsInRzIjoxNzg1MzMzOTE5MDAwfQ+/Zm9vYmFy==";
pub const TO_ADDRESS: &str = "0x52908400098527886E0F7030069857D2E4169EE7";

/// A database for one test: a fresh SQLite file in a directory of its own,
/// or the shared PostgreSQL test database (orders have random ids and the
/// tests random keys, so tests do not see each other's rows).
#[derive(Debug)]
pub enum Db {
    Sqlite(TempDir),
    Postgres(String),
}

impl Db {
    /// The `--database` argument.
    pub fn arg(&self) -> String {
        match self {
            Db::Sqlite(dir) => dir.0.join("orders.sqlite3").display().to_string(),
            Db::Postgres(url) => url.clone(),
        }
    }

    /// The same, as a URL for sqlx.
    pub fn url(&self) -> String {
        match self {
            Db::Sqlite(dir) => format!("sqlite://{}", dir.0.join("orders.sqlite3").display()),
            Db::Postgres(url) => url.clone(),
        }
    }

    pub fn name(&self) -> &'static str {
        match self {
            Db::Sqlite(_) => "sqlite",
            Db::Postgres(_) => "postgres",
        }
    }
}

/// A directory removed on drop.
#[derive(Debug)]
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new() -> Self {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!(
            "swaproute-server-test-{}-{n}-{}",
            std::process::id(),
            key()
        ));
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// SQLite always; PostgreSQL when the environment names it.
pub fn databases() -> Vec<Db> {
    let mut all = vec![Db::Sqlite(TempDir::new())];
    match std::env::var("SWAPROUTE_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => all.push(Db::Postgres(url)),
        _ => {
            eprintln!("SWAPROUTE_TEST_POSTGRES_URL is unset: PostgreSQL skipped (.ci/run sets it)");
        }
    }
    all
}

/// A random text (for keys and names), from the standard library's hasher
/// seeds: distinct per call, not for security.
pub fn key() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos(),
    );
    format!("{:016x}", hasher.finish())
}

/// A running server process.
pub struct Server {
    pub child: Child,
    pub base: String,
    pub addr: String,
    agent: ureq::Agent,
    /// Every line the server wrote on stderr so far.
    pub log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    /// Starts the binary over `db` with the bundled rates at [`NOW`] and
    /// `extra` flags.
    pub fn start(db: &Db, extra: &[&str]) -> Server {
        Self::spawn(
            Command::new(env!("CARGO_BIN_EXE_swaproute-server")),
            db,
            extra,
            true,
        )
    }

    /// The same, with the server's log written to `log` (a file) instead of
    /// read by the test (the load test: a reader in the client's process
    /// would compete with the server for the cores).
    pub fn start_logging_to(db: &Db, extra: &[&str], log: &std::path::Path) -> Server {
        // SWAPROUTE_TEST_SERVER_BIN: another build to load (an earlier
        // commit's binary, to compare figures taken in the same conditions).
        let binary = std::env::var("SWAPROUTE_TEST_SERVER_BIN")
            .unwrap_or_else(|_| env!("CARGO_BIN_EXE_swaproute-server").to_owned());
        let mut command = Command::new(binary);
        command.stderr(std::fs::File::create(log).unwrap());
        Self::spawn(command, db, extra, false)
    }

    /// The same, with the open-file limit lowered to `files` first.
    pub fn start_with_file_limit(db: &Db, extra: &[&str], files: u32) -> Server {
        let mut shell = Command::new("sh");
        shell.args([
            "-c",
            &format!("ulimit -n {files} && exec \"$0\" \"$@\""),
            env!("CARGO_BIN_EXE_swaproute-server"),
        ]);
        Self::spawn(shell, db, extra, true)
    }

    fn spawn(mut command: Command, db: &Db, extra: &[&str], pipe_log: bool) -> Server {
        command
            .args(["--listen", "127.0.0.1:0", "--now", &NOW.to_string()])
            .args(["--database", &db.arg()])
            .args(extra)
            .stdout(Stdio::piped());
        if pipe_log {
            command.stderr(Stdio::piped());
        }
        let mut child = command.spawn().unwrap();
        // The server's log, into the test's captured output and `log`.
        let log = Arc::new(Mutex::new(Vec::new()));
        if let Some(stderr) = child.stderr.take() {
            let mut stderr = BufReader::new(stderr);
            let lines = Arc::clone(&log);
            std::thread::spawn(move || {
                let mut line = String::new();
                while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
                    eprint!("server: {line}");
                    lines.lock().unwrap().push(line.trim_end().to_owned());
                    line.clear();
                }
            });
        }
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        let base = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap_or_else(|| panic!("the server did not start: {line:?}"))
            .to_owned();
        // Keep draining stdout so the child never blocks on it.
        std::thread::spawn(move || {
            let mut sink = String::new();
            while stdout.read_line(&mut sink).is_ok_and(|n| n > 0) {
                sink.clear();
            }
        });
        Server {
            child,
            addr: base.trim_start_matches("http://").to_owned(),
            base,
            agent: agent(),
            log,
        }
    }

    /// The log lines so far that parse as JSON objects.
    pub fn log_json(&self) -> Vec<Value> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .filter(Value::is_object)
            .collect()
    }

    /// Sends `signal` (a `kill` name: `HUP`, `TERM`) to the process.
    pub fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([&format!("-{signal}"), &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }

    /// `(status, body as JSON, or as a JSON string when it is not JSON)`.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Answer {
        call(&self.agent, &self.base, method, path, headers, body)
    }

    pub fn get(&self, path: &str) -> Answer {
        self.call("GET", path, &[("App-Name", "server-test")], None)
    }

    pub fn post(&self, path: &str, body: &[u8]) -> Answer {
        self.call("POST", path, &[("App-Name", "server-test")], Some(body))
    }

    pub fn post_keyed(&self, path: &str, key: &str, body: &[u8]) -> Answer {
        self.post_as("server-test", path, key, body)
    }

    /// A keyed creation by application `app`.
    pub fn post_as(&self, app: &str, path: &str, key: &str, body: &[u8]) -> Answer {
        self.call(
            "POST",
            path,
            &[("App-Name", app), ("Idempotency-Key", key)],
            Some(body),
        )
    }

    pub fn patch(&self, path: &str, body: &Value) -> Answer {
        self.call(
            "PATCH",
            path,
            &[("App-Name", "server-test")],
            Some(body.to_string().as_bytes()),
        )
    }

    /// SIGKILL (`kill -9`), and the process is gone.
    pub fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        std::mem::forget(self);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(30)))
        .max_idle_connections_per_host(4)
        .build()
        .into()
}

/// `(status, body)`; the body is JSON, or a JSON string when it is not.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub text: String,
    pub content_type: String,
    /// Every response header, names in lower case.
    pub headers: Vec<(String, String)>,
}

impl Answer {
    /// The value of response header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

pub fn call(
    agent: &ureq::Agent,
    base: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Answer {
    let uri = format!("{base}{path}");
    let mut request = ureq::http::Request::builder().method(method).uri(&uri);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let mut response = match body {
        Some(body) => agent
            .run(
                request
                    .header("Content-Type", "application/json")
                    .body(body.to_vec())
                    .unwrap(),
            )
            .unwrap(),
        None => agent.run(request.body(()).unwrap()).unwrap(),
    };
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_owned())
        .unwrap_or_default();
    let headers = response
        .headers()
        .iter()
        .map(|(n, v)| (n.as_str().to_owned(), v.to_str().unwrap_or("").to_owned()))
        .collect();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 * 1024 * 1024)
        .read_to_string()
        .unwrap();
    let body = serde_json::from_str(&text).unwrap_or_else(|_| Value::String(text.clone()));
    Answer {
        status,
        body,
        text,
        content_type,
        headers,
    }
}

/// What `GET /v3/orders/{id}` answers for an order created as `created`
/// (the creation's JSON text): the same order with `toAmount: null`, the
/// deposit not analyzed yet (ruling 51).
pub fn as_read(created: &str) -> Value {
    let mut order: Value = serde_json::from_str(created).unwrap();
    order["toAmount"] = Value::Null;
    order
}

pub fn order_body(from: &str, to: &str, mode: &str) -> Vec<u8> {
    json!({"pairId": "BTC_ETH", "fromAmount": from, "fromAddress": null, "toAmount": to,
           "toAddress": TO_ADDRESS, "swapMode": mode})
    .to_string()
    .into_bytes()
}

pub fn float_body(from: &str, to: &str) -> Vec<u8> {
    json!({"pairId": "BTC_ETH", "fromAmount": from, "fromAddress": null, "toAmount": to,
           "toAddress": TO_ADDRESS})
    .to_string()
    .into_bytes()
}

/// Asserts the JSON error model (ruling 16): `{status, code, details}` with
/// the HTTP status repeated, as `application/json`.
pub fn assert_error(answer: &Answer, status: u16, code: &str) {
    assert_eq!(answer.status, status, "{answer:?}");
    assert!(
        answer.content_type.starts_with("application/json"),
        "{answer:?}"
    );
    assert_eq!(answer.body["status"], status, "{answer:?}");
    assert_eq!(answer.body["code"], code, "{answer:?}");
    assert!(
        answer.body["details"]
            .as_str()
            .is_some_and(|d| !d.is_empty()),
        "{answer:?}"
    );
}

/// Runs `sql` on `db` and returns the first column of each row, as text.
pub fn query_texts(db: &Db, sql: &str, bind: &str) -> Vec<String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        use sqlx::Row;
        sqlx::any::install_default_drivers();
        let mut connection = <sqlx::AnyConnection as sqlx::Connection>::connect(&db.url())
            .await
            .unwrap();
        let rows = sqlx::query(sql)
            .bind(bind)
            .fetch_all(&mut connection)
            .await
            .unwrap();
        rows.iter()
            .map(|row| row.try_get::<String, _>(0).unwrap())
            .collect()
    })
}
