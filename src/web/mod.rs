//! `pbrain-wuzi gui`: a board in the browser. A small HTTP server (on
//! loopback unless asked otherwise) serves the page, which is embedded in
//! the executable, and an API: plain requests for the referee's rulings and
//! records, and for each tab an event stream (server-sent events) on which
//! its searches report live. The engine searches here, natively, on
//! threads of its own; the page holds the game, so a restarted server loses
//! nothing.
//!
//! The API (`POST /api/NAME`, form fields; answers are JSON, errors
//! `{"error": …}` with status 4xx):
//! - `state`: the position's side to move, result, five and forbidden points;
//! - `move`, `hint`, `analyse`, `solve`, `swap2`: start a search for the tab
//!   `session`; it reports on `GET /api/events?session=…`; `stop` stops it;
//! - `import` (a move string or `.psq` text) and `export` (`format=psq` or
//!   `moves`).
//!
//! Positions are given by `size`, `rule`, `stones`, `colors` and `side`
//! (see [`position::parse`]).

pub mod json;
pub mod position;
pub mod session;

use std::io::Read;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use tiny_http::{Header, Method, Request, Response, StatusCode};

use crate::cli::engine::parse_seconds;
use crate::cli::game::Game;
use crate::cli::record::{move_string, parse_record};
use crate::cli::{GuiArgs, GUI_PORT};
use crate::levels::{Level, FULL_STRENGTH};
use crate::search::MAX_THREADS;
use json::Object;
use position::Fields;
use session::{Job, Session, Sessions, Task};

/// Largest request body accepted (a long `.psq` record fits easily).
const MAX_BODY: u64 = 64 << 10;
/// Most candidate moves an analysis lists.
pub const MAX_NBEST: usize = 10;

/// Settings of `gui`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuiOptions {
    /// Address to listen on (`127.0.0.1`; anything else is reachable from
    /// other machines, and `gui` warns about it).
    pub host: String,
    /// Port (0: any free one).
    pub port: u16,
    /// Open the page in the default browser.
    pub open: bool,
    /// Search threads per search.
    pub threads: usize,
    /// Hash table of each tab, in MiB.
    pub hash_mb: usize,
}

impl Default for GuiOptions {
    fn default() -> Self {
        GuiOptions {
            host: "127.0.0.1".into(),
            port: GUI_PORT,
            open: false,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
            hash_mb: 64,
        }
    }
}

impl From<&GuiArgs> for GuiOptions {
    fn from(args: &GuiArgs) -> GuiOptions {
        let defaults = GuiOptions::default();
        GuiOptions {
            host: args.host.clone(),
            port: args.port,
            open: args.open,
            threads: args.threads.unwrap_or(defaults.threads),
            hash_mb: args.hash,
        }
    }
}

/// Whether `host` names this machine only.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_matches(|c| c == '[' || c == ']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The board's server: bound, not yet serving.
pub struct Server {
    http: tiny_http::Server,
    addr: SocketAddr,
    state: Arc<State>,
}

struct State {
    sessions: Sessions,
    /// Loopback only: refuse requests naming another host (a web page
    /// elsewhere reaching the board through a name pointed at 127.0.0.1).
    loopback: bool,
}

impl Server {
    /// Binds to the options' address.
    pub fn bind(options: &GuiOptions) -> Result<Server> {
        let addr = (options.host.as_str(), options.port)
            .to_socket_addrs()
            .with_context(|| format!("bad host {:?}", options.host))?
            .next()
            .with_context(|| format!("no address for host {:?}", options.host))?;
        let http = tiny_http::Server::http(addr)
            .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
        let addr = http
            .server_addr()
            .to_ip()
            .context("the server has no IP address")?;
        let tt_bytes = options.hash_mb << 20;
        Ok(Server {
            http,
            addr,
            state: Arc::new(State {
                sessions: Sessions::new(tt_bytes, options.threads.clamp(1, MAX_THREADS)),
                loopback: is_loopback(&options.host),
            }),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves requests for good, each on a thread of its own.
    pub fn serve(self) {
        for request in self.http.incoming_requests() {
            let state = Arc::clone(&self.state);
            let spawned = std::thread::Builder::new()
                .name("web request".into())
                .spawn(move || handle(&state, request));
            if let Err(e) = spawned {
                log::error!("cannot start a request thread: {e}");
            }
        }
    }
}

/// Starts the board's server, hands its address to `announce` (the caller
/// tells the person where to point a browser) and serves until killed.
pub fn run(options: &GuiOptions, announce: impl FnOnce(&str)) -> Result<()> {
    if !is_loopback(&options.host) {
        eprintln!(
            "warning: serving on {}: anyone who can reach this address can use the board \
             and the engine's CPU",
            options.host
        );
    }
    let server = Server::bind(options)?;
    let addr = server.addr();
    let url = match addr {
        SocketAddr::V6(_) => format!("http://[{}]:{}/", addr.ip(), addr.port()),
        SocketAddr::V4(_) => format!("http://{addr}/"),
    };
    announce(&url);
    if options.open {
        open_browser(&url);
    }
    server.serve();
    Ok(())
}

fn open_browser(url: &str) {
    let commands: &[(&str, &[&str])] = if cfg!(windows) {
        &[("cmd", &["/C", "start", ""])]
    } else if cfg!(target_os = "macos") {
        &[("open", &[])]
    } else {
        &[("xdg-open", &[]), ("sensible-browser", &[])]
    };
    let opened = commands.iter().any(|(program, args)| {
        std::process::Command::new(program)
            .args(*args)
            .arg(url)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .is_ok()
    });
    if !opened {
        eprintln!("could not open a browser: open {url} by hand");
    }
}

/// An answer: status and JSON body.
struct Reply(u16, String);

fn error(status: u16, message: impl Into<String>) -> Reply {
    Reply(status, Object::new().str("error", &message.into()).end())
}

fn handle(state: &State, mut request: Request) {
    let (path, query) = match request.url().split_once('?') {
        Some((path, query)) => (path.to_string(), query.to_string()),
        None => (request.url().to_string(), String::new()),
    };
    if state.loopback && !host_is_loopback(&request) {
        return send(
            request,
            error(403, "this board answers on 127.0.0.1 or localhost only"),
        );
    }
    let method = request.method().clone();
    if method == Method::Get {
        let asset = match path.as_str() {
            "/" | "/index.html" => Some((include_str!("assets/index.html"), "text/html")),
            "/app.js" => Some((include_str!("assets/app.js"), "text/javascript")),
            "/style.css" => Some((include_str!("assets/style.css"), "text/css")),
            "/favicon.svg" | "/favicon.ico" => {
                Some((include_str!("assets/favicon.svg"), "image/svg+xml"))
            }
            _ => None,
        };
        if let Some((body, kind)) = asset {
            let header = Header::from_bytes("Content-Type", format!("{kind}; charset=utf-8"))
                .expect("a valid header");
            let _ = request.respond(Response::from_string(body).with_header(header));
            return;
        }
        if path == "/api/events" {
            let fields = decode_form(&query);
            return match fields.get("session").filter(|id| valid_session_id(id)) {
                Some(id) => state.sessions.stream(id, request.into_writer()),
                None => send(
                    request,
                    error(
                        400,
                        "events need a session=ID (letters and digits, 1 to 40)",
                    ),
                ),
            };
        }
    }
    let Some(name) = path.strip_prefix("/api/") else {
        return send(request, error(404, format!("no such page: {path}")));
    };
    if method != Method::Post {
        return send(request, error(405, format!("/api/{name} takes POST")));
    }
    let mut body = String::new();
    let read = request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut body);
    let reply = match read {
        Err(_) => error(400, "the request body is not UTF-8 text"),
        Ok(n) if n as u64 > MAX_BODY => {
            error(413, format!("the request body is over {MAX_BODY} bytes"))
        }
        Ok(_) => {
            let mut fields = decode_form(&query);
            fields.extend(decode_form(&body));
            api(state, name, &fields)
        }
    };
    send(request, reply);
}

fn send(request: Request, Reply(status, body): Reply) {
    let header = Header::from_bytes("Content-Type", "application/json").expect("a valid header");
    let response = Response::from_string(body)
        .with_status_code(StatusCode(status))
        .with_header(header);
    let _ = request.respond(response);
}

fn host_is_loopback(request: &Request) -> bool {
    let Some(host) = request
        .headers()
        .iter()
        .find(|h| h.field.equiv("Host"))
        .map(|h| h.value.as_str().to_string())
    else {
        return true;
    };
    // Strip the port: `127.0.0.1:5015`, `[::1]:5015`, `localhost`.
    let name = match host.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) && !name.ends_with(':') => {
            name
        }
        _ => host.as_str(),
    };
    is_loopback(name)
}

fn valid_session_id(id: &str) -> bool {
    (1..=40).contains(&id.len()) && id.chars().all(|c| c.is_ascii_alphanumeric())
}

/// Decodes `a=1&b=two+words` (percent escapes too).
pub fn decode_form(text: &str) -> Fields {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (percent_decode(key), percent_decode(value))
        })
        .collect()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = text
                    .get(i + 1..i + 3)
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(byte) => {
                        out.push(byte);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            byte => out.push(byte),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn api(state: &State, name: &str, fields: &Fields) -> Reply {
    match name {
        "state" => match position::parse(fields) {
            Ok(game) => Reply(200, position::state_json(&game)),
            Err(e) => error(400, e),
        },
        "import" => import(fields),
        "export" => export(fields),
        "stop" | "move" | "hint" | "analyse" | "solve" | "swap2" => {
            let Some(id) = fields.get("session") else {
                return error(400, "no session: open /api/events?session=ID first");
            };
            let Some(session) = state.sessions.get(id) else {
                return error(409, format!("no open event stream for session {id:?}"));
            };
            if name == "stop" {
                session.stop();
                return Reply(200, Object::new().str("stopped", id).end());
            }
            match job(name, fields) {
                Ok(job) => start(&session, job, name),
                Err(e) => error(400, e),
            }
        }
        _ => error(404, format!("no such request: /api/{name}")),
    }
}

fn start(session: &Arc<Session>, job: Job, name: &str) -> Reply {
    let id = job.id;
    match session.start(job) {
        Ok(()) => Reply(202, Object::new().num("id", id).str("started", name).end()),
        Err(e) => error(503, format!("cannot start a search: {e}")),
    }
}

/// Reads a search request: the position and the task's settings.
fn job(name: &str, fields: &Fields) -> Result<Job, String> {
    let id = match fields.get("id") {
        Some(text) => text
            .parse()
            .map_err(|_| format!("bad id {text:?}: a number"))?,
        None => 0,
    };
    let game = position::parse(fields)?;
    if let Some(text) = game.result_text() {
        return Err(format!("the game is over ({text})"));
    }
    let board = game.board().clone();
    let seconds = |default: Option<Duration>| -> Result<Option<Duration>, String> {
        match fields.get("time").filter(|t| !t.is_empty()) {
            None => Ok(default),
            Some(text) => parse_seconds(text).map(Some).map_err(|e| e.to_string()),
        }
    };
    let one_second = Some(Duration::from_secs(1));
    let task = match name {
        "move" => {
            let strength = match fields.get("strength") {
                Some(text) => text
                    .parse::<u8>()
                    .ok()
                    .filter(|&s| s <= FULL_STRENGTH)
                    .ok_or_else(|| format!("bad strength {text:?}: 0 to {FULL_STRENGTH}"))?,
                None => FULL_STRENGTH,
            };
            Task::Move(Level::from_strength(strength))
        }
        "hint" => Task::Hint,
        "analyse" => {
            let n = match fields.get("nbest") {
                Some(text) => text
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_NBEST).contains(n))
                    .ok_or_else(|| format!("bad nbest {text:?}: 1 to {MAX_NBEST}"))?,
                None => 1,
            };
            Task::Analyse(n)
        }
        "solve" => Task::Solve,
        _ => {
            if ![0, 3, 5].contains(&board.move_count()) {
                return Err(format!(
                    "swap2 decides on 0, 3 or 5 stones, not {}",
                    board.move_count()
                ));
            }
            Task::Swap2
        }
    };
    let time = match task {
        // An analysis runs until stopped unless given a time; 0 means that too.
        Task::Analyse(_) => seconds(None)?.filter(|t| !t.is_zero()),
        Task::Solve => seconds(Some(Duration::from_secs(10)))?,
        _ => seconds(one_second)?,
    };
    Ok(Job {
        id,
        task,
        board,
        time,
    })
}

fn import(fields: &Fields) -> Reply {
    let text = fields.get("text").map_or("", String::as_str);
    if text.trim().is_empty() {
        return error(
            400,
            "nothing to import: paste a move string (h8i9j10) or a .psq record",
        );
    }
    let size = match fields.get("size").map(|s| crate::cli::parse_size(s)) {
        Some(Err(e)) => return error(400, e.to_string()),
        Some(Ok(size)) => size,
        None => 15,
    };
    let rule = match fields.get("rule").map(|r| crate::cli::parse_rule(r)) {
        Some(Err(e)) => return error(400, e.to_string()),
        Some(Ok(rule)) => rule,
        None => Default::default(),
    };
    let record = match parse_record(text, size, size) {
        Ok(record) => record,
        Err(e) => return error(400, e),
    };
    if record.width != record.height {
        return error(
            400,
            format!(
                "a {}x{} board: this page plays square boards",
                record.width, record.height
            ),
        );
    }
    match Game::from_record(&record, rule) {
        Ok(game) => Reply(
            200,
            Object::new()
                .num("size", record.width)
                .str("stones", &move_string(&record.squares()))
                .raw("state", &position::state_json(&game))
                .end(),
        ),
        Err(e) => error(400, e),
    }
}

fn export(fields: &Fields) -> Reply {
    let game = match position::parse(fields) {
        Ok(game) => game,
        Err(e) => return error(400, e),
    };
    let engine = |key: &str| fields.get(key).is_some_and(|v| v == "engine");
    let text = match fields.get("format").map(String::as_str) {
        Some("psq") => game.record([engine("black"), engine("white")]).to_psq(),
        Some("moves") | None => move_string(&position::squares(&game)),
        Some(other) => return error(400, format!("bad format {other:?}: psq or moves")),
    };
    Reply(200, Object::new().str("text", &text).end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_and_forms() {
        let args = GuiArgs {
            host: "0.0.0.0".into(),
            port: 0,
            open: true,
            threads: None,
            hash: 8,
        };
        let options = GuiOptions::from(&args);
        assert_eq!((options.port, options.open, options.hash_mb), (0, true, 8));
        assert_eq!(options.threads, GuiOptions::default().threads);
        assert!(!is_loopback(&options.host));
        assert!(is_loopback("127.0.0.1") && is_loopback("localhost") && is_loopback("[::1]"));
        let form = decode_form("stones=h8i9&text=a+b%0Ac%2&empty=&flag");
        assert_eq!(form["stones"], "h8i9");
        assert_eq!(form["text"], "a b\nc%2");
        assert_eq!(form["empty"], "");
        assert_eq!(form["flag"], "");
    }
}
