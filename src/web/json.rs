//! Writing the JSON the page reads: objects built field by field, strings
//! escaped, squares as `[x, y]` pairs.

use std::fmt::Write;

use crate::types::Pos;

/// A JSON object under construction.
pub struct Object(String);

impl Default for Object {
    fn default() -> Self {
        Object::new()
    }
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object(String::from("{"))
    }

    fn key(&mut self, key: &str) {
        if self.0.len() > 1 {
            self.0.push(',');
        }
        self.0.push_str(&string(key));
        self.0.push(':');
    }

    /// Adds a field holding JSON text written elsewhere (a number, an
    /// array, an object, `null`).
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        self.key(key);
        self.0.push_str(json);
        self
    }

    /// Adds a number field.
    pub fn num(self, key: &str, value: impl std::fmt::Display) -> Object {
        let text = value.to_string();
        self.raw(key, &text)
    }

    /// Adds a string field.
    pub fn str(self, key: &str, value: &str) -> Object {
        let text = string(value);
        self.raw(key, &text)
    }

    /// Adds a string field, or `null` for `None`.
    pub fn opt_str(self, key: &str, value: Option<&str>) -> Object {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, "null"),
        }
    }

    /// The finished object.
    pub fn end(mut self) -> String {
        self.0.push('}');
        self.0
    }
}

/// A JSON string literal holding `text`.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An array of JSON values written elsewhere.
pub fn array(items: impl IntoIterator<Item = String>) -> String {
    let items: Vec<String> = items.into_iter().collect();
    format!("[{}]", items.join(","))
}

/// Squares as an array of `[x, y]` pairs.
pub fn squares(cells: &[Pos]) -> String {
    array(cells.iter().map(|p| format!("[{},{}]", p.x(), p.y())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_and_escapes() {
        let json = Object::new()
            .num("n", 3)
            .str("s", "a \"b\"\n\u{1}")
            .opt_str("none", None)
            .raw("line", &squares(&[Pos::new(7, 7), Pos::new(0, 14)]))
            .end();
        assert_eq!(
            json,
            r#"{"n":3,"s":"a \"b\"\n\u0001","none":null,"line":[[7,7],[0,14]]}"#
        );
        assert_eq!(Object::new().end(), "{}");
    }
}
