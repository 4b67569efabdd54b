//! Engine specifications, written as `key=value` words as cutechess-cli
//! takes them: `cmd=... name=... option.Hash=64 depth=2`.

use crate::tc::TimeControl;

/// How far each move is searched. The first set of `tc`, `movetime`,
/// `nodes`, `depth` (in that order) is sent with `go`, the others too when
/// several are given (the engine stops at the first limit reached).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// A time control kept by the runner (`go wtime btime winc binc`).
    pub tc: Option<TimeControl>,
    /// A fixed time per move in ms (`go movetime`).
    pub movetime: Option<u64>,
    /// A node budget per move (`go nodes`).
    pub nodes: Option<u64>,
    /// A depth per move (`go depth`).
    pub depth: Option<u32>,
}

impl Limit {
    /// Whether no limit is set.
    pub fn is_empty(&self) -> bool {
        self.tc.is_none() && self.movetime.is_none() && self.nodes.is_none() && self.depth.is_none()
    }

    /// This limit's values, falling back on `other` for those not set.
    pub fn or(&self, other: &Limit) -> Limit {
        Limit {
            tc: self.tc.or(other.tc),
            movetime: self.movetime.or(other.movetime),
            nodes: self.nodes.or(other.nodes),
            depth: self.depth.or(other.depth),
        }
    }

    /// Sets one limit from its `key=value` word; `Ok(false)` if `key` is
    /// not a limit.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let number = |what: &str| -> Result<u64, String> {
            value
                .parse::<u64>()
                .ok()
                .filter(|&v| v > 0)
                .ok_or_else(|| format!("{key}={value}: {what} must be a positive whole number"))
        };
        match key {
            "tc" => self.tc = Some(value.parse()?),
            "movetime" | "st" => self.movetime = Some(number("the time in ms")?),
            "nodes" => self.nodes = Some(number("the node count")?),
            "depth" => {
                let d = number("the depth")?;
                self.depth = Some(u32::try_from(d.min(1000)).unwrap_or(1000));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// One engine of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in PGN and score lines.
    pub name: String,
    /// The program; `None` for this very program's `thaiboard uci`
    /// (the caller fills it in).
    pub cmd: Option<String>,
    /// Arguments (the words after the first of `cmd`, then every `arg=`).
    pub args: Vec<String>,
    /// The working directory, if not the current one.
    pub dir: Option<String>,
    /// UCI options sent with `setoption` after `uci`, in order.
    pub options: Vec<(String, String)>,
    /// Per-engine limits, over the match-wide ones.
    pub limit: Limit,
}

/// The keys an engine specification takes, for error messages.
pub const SPEC_KEYS: &str = "cmd, arg, name, dir, option.NAME, tc, movetime, nodes, depth";

impl EngineSpec {
    /// Reads `key=value` words. `cmd` is split at spaces (use `arg=` for
    /// an argument with spaces); `option.NAME=VALUE` may repeat.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: None,
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limit: Limit::default(),
        };
        let mut extra_args = Vec::new();
        for word in words {
            let word = word.as_ref();
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!(
                    "engine setting '{word}' is not key=value (keys: {SPEC_KEYS})"
                ));
            };
            if let Some(opt) = key.strip_prefix("option.") {
                if opt.is_empty() {
                    return Err(format!("engine setting '{word}': the option has no name"));
                }
                spec.options.push((opt.to_string(), value.to_string()));
                continue;
            }
            if spec.limit.set(key, value)? {
                continue;
            }
            match key {
                "cmd" => {
                    let mut parts = value.split_whitespace();
                    let program = parts
                        .next()
                        .ok_or_else(|| "engine setting 'cmd=' names no program".to_string())?;
                    spec.cmd = Some(program.to_string());
                    spec.args = parts.map(str::to_string).collect();
                }
                "arg" => extra_args.push(value.to_string()),
                "name" => spec.name = value.to_string(),
                "dir" => spec.dir = Some(value.to_string()),
                _ => {
                    return Err(format!(
                        "engine setting '{word}': unknown key '{key}' (keys: {SPEC_KEYS})"
                    ));
                }
            }
        }
        spec.args.extend(extra_args);
        if spec.name.is_empty() {
            spec.name = match &spec.cmd {
                Some(c) => std::path::Path::new(c)
                    .file_stem()
                    .map_or_else(|| c.clone(), |s| s.to_string_lossy().into_owned()),
                None => "thaiboard".to_string(),
            };
        }
        Ok(spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_full_spec() {
        let s = EngineSpec::parse(&[
            "cmd=node --no-experimental-fetch uci.js",
            "name=fsf",
            "option.Skill Level=3",
            "option.Hash=64",
            "arg=extra arg",
            "tc=5+0.05",
            "depth=2",
            "dir=/tmp",
        ])
        .unwrap();
        assert_eq!(s.name, "fsf");
        assert_eq!(s.cmd.as_deref(), Some("node"));
        assert_eq!(s.args, ["--no-experimental-fetch", "uci.js", "extra arg"]);
        assert_eq!(
            s.options,
            [
                ("Skill Level".to_string(), "3".to_string()),
                ("Hash".to_string(), "64".to_string())
            ]
        );
        assert_eq!(s.limit.tc.unwrap().inc_ms, 50);
        assert_eq!(s.limit.depth, Some(2));
        assert_eq!(s.dir.as_deref(), Some("/tmp"));
    }

    #[test]
    fn default_names() {
        let none: [&str; 0] = [];
        assert_eq!(EngineSpec::parse(&none).unwrap().name, "thaiboard");
        let s = EngineSpec::parse(&["cmd=/usr/bin/stockfish.exe"]).unwrap();
        assert_eq!(s.name, "stockfish");
    }

    #[test]
    fn rejects_bad_specs() {
        for (words, needle) in [
            (vec!["cmd"], "not key=value"),
            (vec!["colour=red"], "unknown key 'colour'"),
            (vec!["depth=0"], "positive"),
            (vec!["nodes=many"], "positive"),
            (vec!["tc=abc"], "time control"),
            (vec!["option.=1"], "no name"),
            (vec!["cmd="], "no program"),
        ] {
            let e = EngineSpec::parse(&words).unwrap_err();
            assert!(e.contains(needle), "{words:?}: {e}");
        }
    }

    #[test]
    fn limits_fall_back() {
        let mut own = Limit::default();
        own.set("depth", "3").unwrap();
        let mut all = Limit::default();
        all.set("depth", "9").unwrap();
        all.set("movetime", "100").unwrap();
        let l = own.or(&all);
        assert_eq!(l.depth, Some(3));
        assert_eq!(l.movetime, Some(100));
        assert!(Limit::default().is_empty());
    }
}
