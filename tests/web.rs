//! The browser board's server (`pbrain-wuzi gui`), in process: its API over
//! real HTTP on a loopback port: bad requests get clear errors, positions
//! are judged, the engine's moves and analyses arrive on the tab's event
//! stream, a search stops when asked or when its tab goes away, and two tabs
//! do not disturb each other. Every wait has a deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use wuzi::web::{GuiOptions, Server};

/// Longest any one reply or event may take to arrive.
const DEADLINE: Duration = Duration::from_secs(30);

/// Starts a server on a free loopback port, serving on a background thread
/// for the rest of the test process.
fn start() -> SocketAddr {
    let options = GuiOptions {
        port: 0,
        threads: 1,
        hash_mb: 4,
        ..GuiOptions::default()
    };
    let server = Server::bind(&options).expect("binds a loopback port");
    let addr = server.addr();
    std::thread::spawn(move || server.serve());
    addr
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect_timeout(&addr, DEADLINE).expect("connects");
    stream.set_read_timeout(Some(DEADLINE)).expect("timeout");
    stream.set_write_timeout(Some(DEADLINE)).expect("timeout");
    stream
}

/// Sends one request and returns the status and body.
fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    request_with_host(addr, method, path, body, &addr.to_string())
}

fn request_with_host(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    host: &str,
) -> (u16, String) {
    let mut stream = connect(addr);
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("sends");
    stream.write_all(body.as_bytes()).expect("sends");
    let mut reply = Vec::new();
    stream.read_to_end(&mut reply).expect("reads the reply");
    let reply = String::from_utf8(reply).expect("UTF-8");
    let status = reply
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {reply:?}"));
    let body = reply.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_string())
}

fn post(addr: SocketAddr, name: &str, body: &str) -> (u16, String) {
    request(addr, "POST", &format!("/api/{name}"), body)
}

/// A tab's open event stream.
struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    fn open(addr: SocketAddr, session: &str) -> Events {
        let mut stream = connect(addr);
        let head = format!("GET /api/events?session={session} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        stream.write_all(head.as_bytes()).expect("sends");
        let mut events = Events {
            reader: BufReader::new(stream),
        };
        let first = events.line();
        assert!(first.starts_with("HTTP/1.1 200"), "{first}");
        events.next("ready");
        events
    }

    fn line(&mut self) -> String {
        let mut line = String::new();
        let n = self
            .reader
            .read_line(&mut line)
            .expect("the stream stays open");
        assert!(n > 0, "the stream ended");
        line.trim_end().to_string()
    }

    /// The data of the next event named `name`, skipping others.
    fn next(&mut self, name: &str) -> String {
        let start = Instant::now();
        let mut event = String::new();
        loop {
            assert!(start.elapsed() < DEADLINE, "no {name} event in time");
            let line = self.line();
            if let Some(e) = line.strip_prefix("event: ") {
                event = e.to_string();
            } else if let Some(data) = line.strip_prefix("data: ") {
                if event == name {
                    return data.to_string();
                }
            }
        }
    }
}

/// The `[x,y]` after `"key":` in a JSON text.
fn square_after(json: &str, key: &str) -> Option<(usize, usize)> {
    let rest = &json[json.find(&format!("\"{key}\":["))? + key.len() + 4..];
    let (x, rest) = rest.split_once(',')?;
    let y = rest.split_once(']')?.0;
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[test]
fn bad_requests_get_clear_errors() {
    let addr = start();
    let cases: &[(&str, &str, &str, u16, &str)] = &[
        ("GET", "/nowhere", "", 404, "no such page: /nowhere"),
        ("GET", "/api/state", "", 405, "takes POST"),
        ("POST", "/api/frobnicate", "", 404, "no such request"),
        ("POST", "/api/state", "size=4", 400, "bad board size"),
        ("POST", "/api/state", "size=23", 400, "bad board size"),
        ("POST", "/api/state", "rule=go", 400, "bad rule"),
        (
            "POST",
            "/api/state",
            "stones=h8h8",
            400,
            "stone 2: h8 (7,7) is already taken",
        ),
        (
            "POST",
            "/api/state",
            "stones=h8%zz",
            400,
            "stones: bad move",
        ),
        (
            "POST",
            "/api/state",
            "size=9&stones=j1",
            400,
            "off the board",
        ),
        ("POST", "/api/state", "stones=h8&colors=q", 400, "colors"),
        ("POST", "/api/import", "text=", 400, "nothing to import"),
        (
            "POST",
            "/api/import",
            "text=Piskvorky+nonsense",
            400,
            "Piskvork header",
        ),
        ("POST", "/api/export", "format=sgf", 400, "bad format"),
        ("GET", "/api/events", "", 400, "session=ID"),
        ("GET", "/api/events?session=a/b", "", 400, "session=ID"),
        ("POST", "/api/move", "stones=h8", 400, "no session"),
        (
            "POST",
            "/api/move",
            "session=nobody",
            409,
            "no open event stream",
        ),
    ];
    for &(method, path, body, status, says) in cases {
        let (got, reply) = request(addr, method, path, body);
        assert_eq!(got, status, "{method} {path} {body}: {reply}");
        assert!(reply.contains("\"error\":"), "{reply}");
        assert!(
            reply.contains(says),
            "{method} {path} {body}: {reply} should say {says:?}"
        );
    }
    // Requests for a search: bad settings, a finished game.
    let mut events = Events::open(addr, "bad");
    for (name, body, says) in [
        ("move", "strength=101", "bad strength"),
        ("move", "time=-1", "bad time"),
        ("analyse", "nbest=0", "bad nbest"),
        ("swap2", "stones=h8", "swap2 decides on 0, 3 or 5 stones"),
        (
            "hint",
            "stones=a1b1a2b2a3b3a4b4a5",
            "the game is over (result: black wins",
        ),
        ("move", "id=x", "bad id"),
    ] {
        let (status, reply) = post(addr, name, &format!("session=bad&{body}"));
        assert_eq!(status, 400, "{name} {body}: {reply}");
        assert!(
            reply.contains(says),
            "{name} {body}: {reply} should say {says:?}"
        );
    }
    // Too large a body, a foreign Host (DNS rebinding), a broken request.
    let big = format!("text={}", "h8".repeat(40_000));
    assert_eq!(post(addr, "import", &big).0, 413);
    let (status, reply) = request_with_host(addr, "GET", "/", "", "evil.example:5015");
    assert_eq!(status, 403, "{reply}");
    let mut raw = connect(addr);
    raw.write_all(b"NONSENSE\r\n\r\n").expect("sends");
    let mut reply = String::new();
    let _ = raw.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 400"), "{reply:?}");
    // The server still serves, and the tab's stream is still alive.
    let (status, page) = request(addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<svg id=\"board\""));
    let (status, _) = post(addr, "solve", "session=bad&id=3&stones=h8a1i8a2j8a3");
    assert_eq!(status, 202);
    let solved = events.next("solve");
    assert!(solved.contains("\"kind\":\"VCF\""), "{solved}");
}

#[test]
fn positions_are_judged() {
    let addr = start();
    // Renju: black's double three at h8 is marked while black is to move.
    let (status, state) = post(addr, "state", "rule=renju&stones=g8a1i8a3h7a5h9a7");
    assert_eq!(status, 200, "{state}");
    assert!(state.contains("\"forbidden\":[[7,7]]"), "{state}");
    let (_, white) = post(addr, "state", "rule=renju&stones=g8a1i8a3h7a5h9");
    assert!(white.contains("\"side\":\"white\""), "{white}");
    assert!(white.contains("\"forbidden\":[]"), "{white}");
    let (status, foul) = post(addr, "state", "rule=renju&stones=g8a1i8a3h7a5h9a7h8");
    assert_eq!(status, 400);
    assert!(
        foul.contains("forbidden for black under renju (a double three)"),
        "{foul}"
    );
    // A five ends the game and is given as its stones; taking back the last
    // move (the page's undo) reopens it.
    let five = "stones=h8a1i8a2j8a3k8a4l8";
    let (_, over) = post(addr, "state", five);
    assert!(over.contains("\"result\":\"black\""), "{over}");
    assert!(over.contains("\"line\":[[11,7],"), "{over}");
    let (_, undone) = post(addr, "state", "stones=h8a1i8a2j8a3k8a4");
    assert!(undone.contains("\"result\":null"), "{undone}");
    assert!(undone.contains("\"side\":\"black\""), "{undone}");
    // A set-up position: colours given, side to move chosen.
    let (status, edited) = post(addr, "state", "stones=h8i8j8&colors=bbb&side=black");
    assert_eq!(status, 200, "{edited}");
    assert!(edited.contains("\"side\":\"black\""), "{edited}");
    // Records: a .psq imported, the position exported both ways.
    let psq = "Piskvorky 20x20, 11:11, 0\n11,11,100\n12,12,200\n-1\n";
    let body = format!(
        "text={}",
        psq.replace(' ', "+")
            .replace('\n', "%0A")
            .replace(',', "%2C")
    );
    let (status, imported) = post(addr, "import", &body);
    assert_eq!(status, 200, "{imported}");
    assert!(imported.contains("\"size\":20"), "{imported}");
    assert!(imported.contains("\"stones\":\"k11l12\""), "{imported}");
    let (_, moves) = post(addr, "export", "size=20&stones=k11l12&format=moves");
    assert_eq!(moves, r#"{"text":"k11l12"}"#);
    let (_, exported) = post(
        addr,
        "export",
        "size=20&stones=k11l12&format=psq&white=engine",
    );
    assert!(
        exported.contains(r#"Piskvorky 20x20, 0:11, 0\n11,11,0\n12,12,0\n-1"#),
        "{exported}"
    );
}

#[test]
fn engine_moves_hints_and_stops() {
    let addr = start();
    let mut events = Events::open(addr, "one");
    // Every strength gives a legal move on an empty cell, tagged with the id.
    for (id, strength) in [(1, 0), (2, 30), (3, 60), (4, 100)] {
        let body = format!("session=one&id={id}&stones=h8i9&strength={strength}&time=0.2");
        let (status, reply) = post(addr, "move", &body);
        assert_eq!(status, 202, "{reply}");
        let data = events.next("move");
        assert!(data.starts_with(&format!("{{\"id\":{id},")), "{data}");
        let at = square_after(&data, "at").expect("a move");
        assert!(
            at != (7, 7) && at != (8, 8) && at.0 < 15 && at.1 < 15,
            "{data}"
        );
    }
    // The hint takes the five.
    let body = "session=one&id=9&stones=h8a1i8a2j8a3k8a4&time=0.2";
    assert_eq!(post(addr, "hint", body).0, 202);
    let hint = events.next("hint");
    let at = square_after(&hint, "at");
    assert!(at == Some((6, 7)) || at == Some((11, 7)), "{hint}");
    // An analysis without a time runs until stopped, reporting each depth.
    let (status, _) = post(addr, "analyse", "session=one&id=10&stones=h8i9&nbest=2");
    assert_eq!(status, 202);
    let first = events.next("info");
    assert!(first.contains("\"depth\":1,"), "{first}");
    assert!(first.contains("\"best\":[{\"at\":"), "{first}");
    assert_eq!(post(addr, "stop", "session=one").0, 200);
    let done = events.next("done");
    assert_eq!(done, r#"{"id":10,"reason":"stopped"}"#);
    // A new request stops the one running: the second analysis reports.
    assert_eq!(post(addr, "analyse", "session=one&id=11&stones=h8").0, 202);
    assert_eq!(
        post(addr, "analyse", "session=one&id=12&stones=h8i9").0,
        202
    );
    let info = events.next("info");
    let info = if info.starts_with("{\"id\":11") {
        events.next("done");
        events.next("info")
    } else {
        info
    };
    assert!(info.starts_with("{\"id\":12"), "{info}");
    assert_eq!(post(addr, "stop", "session=one").0, 200);
    // Swap2: the engine proposes three stones on an empty board.
    assert_eq!(post(addr, "swap2", "session=one&id=13&time=0.3").0, 202);
    let swap2 = events.next("swap2");
    assert!(swap2.contains("\"answer\":\"propose\""), "{swap2}");
    assert_eq!(swap2.matches('[').count(), 4, "three stones: {swap2}");
}

#[test]
fn closing_a_tab_stops_its_search() {
    let addr = start();
    let events = Events::open(addr, "gone");
    assert_eq!(
        post(addr, "analyse", "session=gone&id=1&stones=h8i9").0,
        202
    );
    drop(events);
    // The server notices at its next keep-alive and forgets the tab.
    let start = Instant::now();
    loop {
        let (status, _) = post(addr, "stop", "session=gone");
        if status == 409 {
            break;
        }
        assert!(start.elapsed() < DEADLINE, "the closed tab is still known");
        std::thread::sleep(Duration::from_millis(100));
    }
    // And the server serves on.
    assert_eq!(post(addr, "state", "stones=h8").0, 200);
}

#[test]
fn two_tabs_do_not_disturb_each_other() {
    let addr = start();
    let mut a = Events::open(addr, "tabA");
    let mut b = Events::open(addr, "tabB");
    assert_eq!(
        post(addr, "analyse", "session=tabA&id=1&stones=h8i9").0,
        202
    );
    assert_eq!(post(addr, "analyse", "session=tabB&id=2&stones=h8").0, 202);
    // Stopping A's search leaves B's running.
    a.next("info");
    assert_eq!(post(addr, "stop", "session=tabA").0, 200);
    assert_eq!(a.next("done"), r#"{"id":1,"reason":"stopped"}"#);
    let info = b.next("info");
    assert!(info.starts_with("{\"id\":2,"), "{info}");
    let again = b.next("info");
    assert!(again.starts_with("{\"id\":2,"), "B still analyses: {again}");
    // A move for A arrives on A's stream only.
    assert_eq!(
        post(addr, "move", "session=tabA&id=3&stones=h8&time=0.1").0,
        202
    );
    let moved = a.next("move");
    assert!(moved.starts_with("{\"id\":3,"), "{moved}");
    assert_eq!(post(addr, "stop", "session=tabB").0, 200);
    let done = b.next("done");
    assert_eq!(done, r#"{"id":2,"reason":"stopped"}"#);
}
