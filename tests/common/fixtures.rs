//! The reader of `tests/data/threat-positions.txt` (the format
//! `scripts/prove.py` reads): `[name]` headers, `key: value` fields, diagram
//! rows (top row y = 0, blanks ignored).

/// One position of the threat file: its name, fields and diagram rows.
pub struct Fixture {
    /// The `[name]` it is known by.
    pub name: String,
    /// `key: value` fields in file order; a repeated key's values are
    /// joined with a blank.
    pub fields: Vec<(String, String)>,
    /// The diagram rows as written (trimmed), top row first.
    pub rows: Vec<String>,
}

impl Fixture {
    /// The value of field `key`.
    pub fn field(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The (x, y) cells of the diagram holding `mark`, row by row.
    pub fn cells(&self, mark: char) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for (y, row) in self.rows.iter().enumerate() {
            let row = row.chars().filter(|c| !c.is_whitespace());
            found.extend(
                row.enumerate()
                    .filter(|&(_, c)| c == mark)
                    .map(|(x, _)| (x, y)),
            );
        }
        found
    }
}

/// Every position of `tests/data/threat-positions.txt`, in file order.
pub fn threat_fixtures() -> Vec<Fixture> {
    let text = include_str!("../data/threat-positions.txt");
    let mut out: Vec<Fixture> = Vec::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push(Fixture {
                name: name.to_string(),
                fields: Vec::new(),
                rows: Vec::new(),
            });
            continue;
        }
        let fixture = out.last_mut().expect("text before the first [name]");
        let is_row = line.chars().all(|c| c == ' ' || "XO.af".contains(c));
        match line.split_once(':') {
            Some((key, value)) if !is_row => {
                let (key, value) = (key.trim().to_string(), value.trim().to_string());
                match fixture.fields.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, v)) => {
                        v.push(' ');
                        v.push_str(&value);
                    }
                    None => fixture.fields.push((key, value)),
                }
            }
            _ => fixture.rows.push(line.to_string()),
        }
    }
    out
}
