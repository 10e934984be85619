//! The seeded generator of random Puppet environments.
//!
//! Deterministic per seed (its own splitmix64, no hash maps). Every
//! environment has `manifests/site.pp`, often a module `fz` with classes, a
//! define and templates, and sometimes Hiera 5 data. A third of the
//! environments are in *expression mode*: a few `notify` resources whose
//! messages are random expressions over every operator and operand type.
//! Programs are meant to parse; they are not meant to compile: errors are
//! compared too.

use std::collections::BTreeMap;

use serde_json::json;

use super::ast::{Attr, Body, Env, Expr, Lambda, Param, Part, Query, Stmt};

/// splitmix64.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
    /// True with probability `pct`%.
    pub fn chance(&mut self, pct: u32) -> bool {
        self.below(100) < pct as usize
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
}

/// Counts of each construct generated, by name.
pub type Coverage = BTreeMap<&'static str, usize>;

fn lit(s: impl Into<String>) -> Expr {
    Expr::Lit(s.into())
}
fn sq(s: impl AsRef<str>) -> Expr {
    Expr::Lit(format!("'{}'", s.as_ref()))
}
fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}
fn attr(name: &str, value: Expr) -> Attr {
    Attr {
        name: name.into(),
        op: "=>",
        value,
    }
}

const INTS: &[&str] = &[
    "0", "1", "2", "3", "-3", "42", "0x1F", "010", "0777", "100", "-1", "7",
];
const FLOATS: &[&str] = &["1.5", "0.0", "-2.25", "2e3", "3.0", "1.0e-2", "0.1"];
const STRINGS: &[&str] = &[
    "'abc'",
    "''",
    "'0x1F'",
    "'010'",
    "'1e3'",
    "'1.5'",
    "' 2'",
    "'2 '",
    "'-7'",
    "'A'",
    "'true'",
    "'a,b,c'",
    "'Hello World'",
    "'x'",
    "'b'",
    "'08'",
    "'0b101'",
    "'1_000'",
    "\"tab\\there\"",
    "'abc123'",
    "'ÅÄÖ'",
    "'1'",
    "'3'",
];
const TYPES: &[&str] = &[
    "Integer",
    "Integer[1,5]",
    "Integer[0]",
    "String",
    "String[1]",
    "Array[Integer]",
    "Array",
    "Hash[String,Integer]",
    "Hash",
    "Optional[String]",
    "Variant[Integer,String]",
    "Enum['a','b']",
    "Pattern[/a/]",
    "Numeric",
    "Float",
    "Boolean",
    "Undef",
    "Any",
    "Scalar",
    "Data",
    "Type",
    "Callable",
    "Tuple[Integer,String]",
    "Struct[{a=>Integer}]",
    "Default",
    "NotUndef",
    "Regexp",
    "Collection",
    "Iterable",
    "Type[Integer]",
    "Float[0.0,2.0]",
    "Array[String,1,2]",
    "SemVer",
    "Notify",
    "File['/tmp/a']",
    "Resource",
    "Class['fz']",
    "Sensitive",
    "Runtime",
    "Integer[default,3]",
];
const REGEXES: &[&str] = &[
    "/a(b)?/",
    "/^\\d+$/",
    "/(\\w+)-(\\d+)/",
    "/b/",
    "/^$/",
    "/x(\\d)/",
    "/A/",
    "/(?i)a/",
    "/[a-c]+/",
];
const SEMVERS: &[&str] = &[
    "SemVer('1.2.3')",
    "SemVer('2.0.0-rc.1')",
    "SemVerRange('>=1.0.0 <2.0.0')",
    "SemVer('1.10.0')",
];

/// The state of one environment's generation.
pub struct Gen<'a> {
    pub rng: Rng,
    pub cov: &'a mut Coverage,
    /// Variables assigned so far in the current scope.
    vars: Vec<String>,
    nvar: usize,
    ntitle: usize,
    /// (type, title) of resources declared so far.
    titles: Vec<(String, String)>,
    tags: Vec<&'static str>,
    /// Inside a lambda (flow control functions make sense).
    in_lambda: bool,
    /// Class names the environment defines.
    classes: Vec<String>,
    defines: Vec<String>,
}

const TAGS: &[&str] = &["t1", "t2", "web", "db"];

impl<'a> Gen<'a> {
    pub fn new(seed: u64, cov: &'a mut Coverage) -> Gen<'a> {
        Gen {
            rng: Rng::new(seed),
            cov,
            vars: Vec::new(),
            nvar: 0,
            ntitle: 0,
            titles: Vec::new(),
            tags: Vec::new(),
            in_lambda: false,
            classes: Vec::new(),
            defines: Vec::new(),
        }
    }

    fn c(&mut self, what: &'static str) {
        *self.cov.entry(what).or_default() += 1;
    }

    fn var_name(&mut self) -> String {
        self.nvar += 1;
        format!("v{}", self.nvar)
    }

    fn title(&mut self) -> String {
        self.ntitle += 1;
        format!("r{}", self.ntitle)
    }

    // ---------------------------------------------------------------- atoms

    /// A literal or variable of a random type.
    pub fn atom(&mut self) -> Expr {
        match self.rng.below(16) {
            0 | 1 => {
                self.c("atom:integer");
                lit(*self.rng.pick(INTS))
            }
            2 => {
                self.c("atom:float");
                lit(*self.rng.pick(FLOATS))
            }
            3..=5 => {
                self.c("atom:string");
                lit(*self.rng.pick(STRINGS))
            }
            6 => {
                self.c("atom:boolean");
                lit(*self.rng.pick(&["true", "false"]))
            }
            7 => {
                self.c("atom:undef");
                lit("undef")
            }
            8 => {
                self.c("atom:array");
                let n = self.rng.below(4);
                Expr::Array((0..n).map(|_| self.small_atom()).collect())
            }
            9 => {
                self.c("atom:hash");
                let n = self.rng.below(3);
                Expr::Hash(
                    (0..n)
                        .map(|i| {
                            let k = if self.rng.chance(80) {
                                sq(["a", "b", "c"][i % 3])
                            } else {
                                lit(["1", "true", "undef"][i % 3])
                            };
                            (k, self.small_atom())
                        })
                        .collect(),
                )
            }
            10 => {
                self.c("atom:regexp");
                lit(*self.rng.pick(REGEXES))
            }
            11 => {
                self.c("atom:type");
                lit(*self.rng.pick(TYPES))
            }
            12 => {
                self.c("atom:default");
                lit("default")
            }
            13 => {
                self.c("atom:semver");
                lit(*self.rng.pick(SEMVERS))
            }
            _ => self.var_ref(),
        }
    }

    fn small_atom(&mut self) -> Expr {
        match self.rng.below(6) {
            0 | 1 => lit(*self.rng.pick(INTS)),
            2 | 3 => lit(*self.rng.pick(STRINGS)),
            4 => lit(*self.rng.pick(&["true", "undef", "1.5"])),
            _ => Expr::Array(vec![lit("1"), sq("x")]),
        }
    }

    /// A variable: one assigned before, a fact, `$trusted`, a built-in.
    fn var_ref(&mut self) -> Expr {
        if !self.vars.is_empty() && self.rng.chance(60) {
            self.c("var:local");
            let v = self.rng.pick(&self.vars).clone();
            return lit(format!("${v}"));
        }
        self.c("var:builtin");
        lit(*self.rng.pick(&[
            "$facts['role']",
            "$facts['os']['family']",
            "$facts['numstr']",
            "$facts['list']",
            "$facts['flag']",
            "$trusted['certname']",
            "$trusted['hostname']",
            "$role",
            "$facts['nosuch']",
            "$server_facts['serverversion']",
            "$module_name",
            "$environment",
            "$undefined_var",
            "$::role",
            "$name",
            "$title",
        ]))
    }

    // ---------------------------------------------------------- expressions

    pub fn expr(&mut self, depth: u32) -> Expr {
        if depth == 0 || self.rng.chance(25) {
            return self.atom();
        }
        let d = depth - 1;
        match self.rng.below(20) {
            0..=4 => self.binop(d),
            5 => {
                let op = *self.rng.pick(&["!", "-"]);
                self.c(if op == "!" { "op:!" } else { "op:neg" });
                Expr::Un(op, bx(self.expr(d)))
            }
            6 => self.access(d),
            7 | 8 => self.call(d),
            9 | 10 => self.iteration(d),
            11 => self.selector(d),
            12 => self.conversion(d),
            13 => {
                self.c("expr:array");
                let n = self.rng.below(4);
                let mut items: Vec<Expr> = (0..n).map(|_| self.expr(d)).collect();
                if self.rng.chance(25) {
                    self.c("op:splat");
                    items.push(Expr::Un("*", bx(self.expr(d))));
                }
                Expr::Array(items)
            }
            14 => {
                self.c("expr:hash");
                let n = self.rng.below(3);
                Expr::Hash(
                    (0..n)
                        .map(|_| {
                            let k = if self.rng.chance(70) {
                                sq(self.rng.pick(&["a", "b", "k"]))
                            } else {
                                self.atom()
                            };
                            (k, self.expr(d))
                        })
                        .collect(),
                )
            }
            15 => self.interp(d),
            16 => {
                self.c("expr:paren");
                Expr::Paren(bx(self.expr(d)))
            }
            17 => self.templates_inline(),
            18 => self.lookup(),
            _ => self.var_ref(),
        }
    }

    fn binop(&mut self, d: u32) -> Expr {
        const OPS: &[&str] = &[
            "+", "-", "*", "/", "%", "<<", ">>", "==", "!=", "<", ">", "<=", ">=", "=~", "!~",
            "in", "and", "or",
        ];
        let op = *self.rng.pick(OPS);
        self.c(match op {
            "+" => "op:+",
            "-" => "op:-",
            "*" => "op:*",
            "/" => "op:/",
            "%" => "op:%",
            "<<" => "op:<<",
            ">>" => "op:>>",
            "==" => "op:==",
            "!=" => "op:!=",
            "<" => "op:<",
            ">" => "op:>",
            "<=" => "op:<=",
            ">=" => "op:>=",
            "=~" => "op:=~",
            "!~" => "op:!~",
            "in" => "op:in",
            "and" => "op:and",
            _ => "op:or",
        });
        let l = self.expr(d);
        let r = match op {
            "=~" | "!~" if self.rng.chance(70) => {
                if self.rng.chance(70) {
                    lit(*self.rng.pick(REGEXES))
                } else {
                    lit(*self.rng.pick(TYPES))
                }
            }
            // Shift counts stay small: Ruby would build a 2^63-bit Integer.
            "<<" | ">>" => lit(*self
                .rng
                .pick(&["1", "2", "0", "-1", "'3'", "63", "64", "1.5", "[1]"])),
            "in" if self.rng.chance(50) => match self.rng.below(3) {
                0 => Expr::Array(vec![sq("a"), sq("b"), lit("1"), lit("/c/")]),
                1 => sq("cabbage"),
                _ => Expr::Hash(vec![(sq("a"), lit("1")), (lit("1"), sq("b"))]),
            },
            _ => self.expr(d),
        };
        let l = if matches!(op, "+" | "-" | "*" | "==" | "<") && self.rng.chance(8) {
            self.c("atom:int64-max");
            lit("9223372036854775807")
        } else if matches!(op, "=~" | "!~" | "in") && self.rng.chance(30) {
            lit(*self
                .rng
                .pick(&["'abc'", "'x1'", "'A'", "/b/", "Integer", "1"]))
        } else {
            l
        };
        let r = if matches!(r, Expr::Bin(..)) && self.rng.chance(80) {
            Expr::Paren(bx(r))
        } else {
            r
        };
        let l = if matches!(l, Expr::Bin(..)) && self.rng.chance(80) {
            Expr::Paren(bx(l))
        } else {
            l
        };
        Expr::Bin(op, bx(l), bx(r))
    }

    fn access(&mut self, d: u32) -> Expr {
        self.c("op:[]");
        let recv = match self.rng.below(6) {
            0 => Expr::Array(vec![
                lit("1"),
                sq("two"),
                lit("3"),
                Expr::Array(vec![lit("4")]),
            ]),
            1 => Expr::Hash(vec![
                (sq("a"), lit("1")),
                (sq("b"), Expr::Array(vec![lit("2")])),
            ]),
            2 => sq("abcdef"),
            3 => lit(*self
                .rng
                .pick(&["Integer", "String", "Array", "Hash", "Optional", "Enum"])),
            _ => self.expr(d),
        };
        let n = 1 + self.rng.below(2);
        let idx = (0..n)
            .map(|_| match self.rng.below(4) {
                0 => lit(*self.rng.pick(&["0", "1", "-1", "2", "10", "-2"])),
                1 => sq(self.rng.pick(&["a", "b", "z"])),
                _ => self.expr(d),
            })
            .collect();
        Expr::Access(bx(recv), idx)
    }

    fn interp(&mut self, d: u32) -> Expr {
        self.c("string:interpolation");
        let mut parts = vec![Part::Text(self.rng.pick(&["v=", "", "x "]).to_string())];
        for _ in 0..1 + self.rng.below(2) {
            if self.rng.chance(30) && !self.vars.is_empty() {
                parts.push(Part::Var(self.rng.pick(&self.vars).clone()));
            } else if self.rng.chance(20) {
                parts.push(Part::Expr(lit(*self.rng.pick(&[
                    "facts['role']",
                    "trusted['certname']",
                    "1 + 2",
                    "$facts['list'][0]",
                ]))));
            } else {
                parts.push(Part::Expr(self.expr(d)));
            }
            parts.push(Part::Text(
                self.rng.pick(&[" ", "-", "\\n", "\\$", ""]).to_string(),
            ));
        }
        Expr::Str(parts)
    }

    fn selector(&mut self, d: u32) -> Expr {
        self.c("expr:selector");
        let subject = if self.rng.chance(40) {
            lit(*self
                .rng
                .pick(&["'x1'", "'abc'", "$facts['role']", "1", "undef", "'A'"]))
        } else {
            self.expr(d)
        };
        let mut arms = Vec::new();
        for _ in 0..1 + self.rng.below(3) {
            let k = match self.rng.below(5) {
                0 => {
                    self.c("selector:regex");
                    lit(*self.rng.pick(REGEXES))
                }
                1 => lit(*self.rng.pick(TYPES)),
                2 => {
                    self.c("selector:undef-option");
                    lit("undef")
                }
                _ => match self.atom() {
                    Expr::Lit(d) if d == "default" => sq("default"),
                    a => a,
                },
            };
            let v = if self.rng.chance(30) {
                self.c("match-var");
                lit(*self.rng.pick(&["$0", "$1", "$2"]))
            } else {
                self.expr(d)
            };
            arms.push((k, v));
        }
        if self.rng.chance(60) {
            arms.push((lit("default"), self.expr(d)));
        }
        Expr::Sel(bx(subject), arms)
    }

    fn conversion(&mut self, d: u32) -> Expr {
        let arg = if self.rng.chance(60) {
            self.atom()
        } else {
            self.expr(d)
        };
        match self.rng.below(11) {
            0 => {
                self.c("convert:Integer");
                Expr::Call("Integer".into(), vec![arg], None)
            }
            1 => {
                self.c("convert:Integer-radix");
                let s = sq(self
                    .rng
                    .pick(&["ff", "11", "0x1F", "777", "z", "-10", "0b11"]));
                let r = lit(*self.rng.pick(&["2", "8", "10", "16", "36", "3"]));
                Expr::Call("Integer".into(), vec![s, r], None)
            }
            2 => {
                self.c("convert:Float");
                Expr::Call("Float".into(), vec![arg], None)
            }
            3 => {
                self.c("convert:String");
                let mut args = vec![arg];
                if self.rng.chance(40) {
                    args.push(sq(self
                        .rng
                        .pick(&["%x", "%p", "%s", "%#o", "%5d", "%.2f", "%b", "%d"])));
                }
                Expr::Call("String".into(), args, None)
            }
            4 => {
                self.c("convert:Array");
                let mut args = vec![arg];
                if self.rng.chance(40) {
                    args.push(lit("true"));
                }
                Expr::Call("Array".into(), args, None)
            }
            5 => {
                self.c("convert:Numeric");
                Expr::Call("Numeric".into(), vec![arg], None)
            }
            6 => {
                self.c("convert:Boolean");
                let s = sq(self.rng.pick(&["yes", "no", "true", "y", "0", "maybe"]));
                Expr::Call(
                    "Boolean".into(),
                    vec![if self.rng.chance(50) { s } else { arg }],
                    None,
                )
            }
            7 => {
                self.c("convert:Hash");
                Expr::Call("Hash".into(), vec![arg], None)
            }
            8 => {
                self.c("convert:new");
                let t = lit(*self
                    .rng
                    .pick(&["Integer", "Float", "String", "Array", "Numeric", "SemVer"]));
                Expr::Method(bx(t), "new".into(), vec![arg], None)
            }
            9 => {
                self.c("convert:Integer-string");
                Expr::Call(
                    "Integer".into(),
                    vec![lit(*self.rng.pick(&[
                        "'0x1F'", "'010'", "'1e3'", "'1.5'", "' 2'", "'0b101'", "'-0x10'", "'08'",
                        "'1_000'", "'+5'",
                    ]))],
                    None,
                )
            }
            _ => {
                self.c("convert:type-call");
                Expr::Call("type".into(), vec![arg], None)
            }
        }
    }

    fn call(&mut self, d: u32) -> Expr {
        const FNS: &[&str] = &[
            "join",
            "split",
            "upcase",
            "downcase",
            "capitalize",
            "sprintf",
            "size",
            "length",
            "keys",
            "values",
            "flatten",
            "sort",
            "unique",
            "type",
            "abs",
            "max",
            "min",
            "strip",
            "empty",
            "reverse_each",
            "regsubst",
            "match",
            "versioncmp",
            "compare",
            "dig",
            "get",
            "camelcase",
            "round",
            "ceiling",
            "floor",
            "chomp",
            "lest",
            "then",
            "index",
            "slice",
            "convert_to",
            "assert_type",
            "defined",
            "tagged",
            "step",
        ];
        let name = *self.rng.pick(FNS);
        self.c(match name {
            "join" => "fn:join",
            "split" => "fn:split",
            "upcase" => "fn:upcase",
            "downcase" => "fn:downcase",
            "capitalize" => "fn:capitalize",
            "sprintf" => "fn:sprintf",
            "size" | "length" => "fn:size",
            "keys" => "fn:keys",
            "values" => "fn:values",
            "flatten" => "fn:flatten",
            "sort" => "fn:sort",
            "unique" => "fn:unique",
            "type" => "fn:type",
            "regsubst" => "fn:regsubst",
            "match" => "fn:match",
            "dig" | "get" => "fn:dig/get",
            "assert_type" => "fn:assert_type",
            "defined" => "fn:defined",
            _ => "fn:other",
        });
        let a = |g: &mut Gen, d: u32| g.expr(d);
        let arr = |g: &mut Gen| -> Expr {
            if g.rng.chance(50) {
                Expr::Array(vec![sq("b"), sq("a"), lit("1"), sq("b")])
            } else {
                g.expr(1)
            }
        };
        let args: Vec<Expr> = match name {
            "join" => vec![arr(self), sq(self.rng.pick(&[",", "-", ""]))],
            "split" => vec![
                if self.rng.chance(60) {
                    sq("a,b,,c")
                } else {
                    a(self, d)
                },
                if self.rng.chance(50) {
                    sq(",")
                } else {
                    lit(*self.rng.pick(REGEXES))
                },
            ],
            "sprintf" => {
                let f = sq(self
                    .rng
                    .pick(&["%s-%d", "%05.1f", "%x", "%<a>s", "%-4s|", "%o", "%e", "%%"]));
                let n = self.rng.below(3);
                let mut v = vec![f];
                v.extend((0..n).map(|_| self.atom()));
                v
            }
            "regsubst" => vec![
                if self.rng.chance(60) {
                    sq("hello world")
                } else {
                    a(self, d)
                },
                lit(*self.rng.pick(&["/o/", "'o'", "/(l+)/"])),
                sq(self.rng.pick(&["0", "<\\1>", "X"])),
                sq(self.rng.pick(&["G", "", "I"])),
            ],
            "match" => vec![
                if self.rng.chance(60) {
                    sq("abc-123")
                } else {
                    a(self, d)
                },
                lit(*self.rng.pick(REGEXES)),
            ],
            "versioncmp" => vec![sq("1.10"), sq(self.rng.pick(&["1.9", "1.10", "a"]))],
            "compare" => vec![self.atom(), self.atom()],
            "dig" => vec![
                Expr::Hash(vec![(
                    sq("a"),
                    Expr::Array(vec![lit("1"), Expr::Hash(vec![(sq("b"), lit("2"))])]),
                )]),
                sq("a"),
                lit(*self.rng.pick(&["1", "0", "5"])),
                sq("b"),
            ],
            "get" => vec![
                Expr::Hash(vec![(sq("a"), Expr::Array(vec![lit("1"), lit("2")]))]),
                sq(self.rng.pick(&["a.1", "a.5", "b", "a.x"])),
            ],
            "max" | "min" => (0..1 + self.rng.below(3)).map(|_| self.atom()).collect(),
            "index" => vec![arr(self), self.atom()],
            "slice" => {
                let l = Lambda {
                    params: vec!["x".into()],
                    body: vec![Stmt::Expr(lit("$x"))],
                };
                return Expr::Call("slice".into(), vec![arr(self), lit("2")], Some(Box::new(l)));
            }
            "convert_to" => vec![self.atom(), lit(*self.rng.pick(TYPES))],
            "assert_type" => vec![lit(*self.rng.pick(TYPES)), self.atom()],
            "defined" => vec![if self.rng.chance(50) {
                lit(*self.rng.pick(&[
                    "'$v1'",
                    "'fz'",
                    "'notify'",
                    "'fz::nosuch'",
                    "\"Notify['r1']\"",
                ]))
            } else {
                lit(*self
                    .rng
                    .pick(&["Notify['r1']", "Class['fz']", "Fz::Thing['a']"]))
            }],
            "tagged" => vec![sq(self.rng.pick(TAGS))],
            "step" => {
                let l = Lambda {
                    params: vec!["x".into()],
                    body: vec![Stmt::Expr(lit("$x"))],
                };
                return Expr::Call(
                    "step".into(),
                    vec![lit("[1,2,3,4,5]"), lit(*self.rng.pick(&["2", "0", "-1"]))],
                    Some(Box::new(l)),
                );
            }
            "lest" | "then" => {
                let l = Lambda {
                    params: if name == "then" {
                        vec!["x".into()]
                    } else {
                        vec![]
                    },
                    body: vec![Stmt::Expr(self.expr(1))],
                };
                return Expr::Call(name.into(), vec![self.atom()], Some(Box::new(l)));
            }
            "round" | "ceiling" | "floor" | "abs" => vec![lit(*self.rng.pick(FLOATS))],
            _ => vec![a(self, d)],
        };
        if self.rng.chance(30) && !args.is_empty() {
            // The same call in method form.
            self.c("call:method-form");
            let mut args = args;
            let recv = args.remove(0);
            return Expr::Method(bx(recv), name.into(), args, None);
        }
        Expr::Call(name.into(), args, None)
    }

    /// each/map/filter/reduce with lambdas and flow control.
    fn iteration(&mut self, d: u32) -> Expr {
        let recv = match self.rng.below(5) {
            0 => Expr::Array(vec![lit("1"), lit("2"), lit("3")]),
            1 => Expr::Hash(vec![(sq("a"), lit("1")), (sq("b"), lit("2"))]),
            2 => lit("[1, 'two', [3], undef]"),
            3 => lit(*self
                .rng
                .pick(&["3", "'ab'", "Integer[1,3]", "$facts['list']"])),
            // Not any expression: an Integer receiver iterates that many
            // times, and arithmetic makes big ones.
            _ => Expr::Array(vec![self.expr(d), self.small_atom()]),
        };
        let f = *self.rng.pick(&[
            "each", "map", "filter", "reduce", "each", "map", "any", "all", "with",
        ]);
        self.c(match f {
            "each" => "iter:each",
            "map" => "iter:map",
            "filter" => "iter:filter",
            "reduce" => "iter:reduce",
            "with" => "iter:with",
            _ => "iter:any/all",
        });
        let params: Vec<String> = match (f, self.rng.below(3)) {
            ("reduce", _) => vec!["m".into(), "x".into()],
            (_, 0) => vec!["k".into(), "x".into()],
            _ => vec!["x".into()],
        };
        let saved = std::mem::replace(&mut self.in_lambda, true);
        let saved_vars = self.vars.clone();
        self.vars.extend(params.iter().cloned());
        let mut body = Vec::new();
        if self.rng.chance(25) {
            let flow = *self.rng.pick(&["next", "break", "return"]);
            self.c(match flow {
                "next" => "flow:next",
                "break" => "flow:break",
                _ => "flow:return",
            });
            let arg = if self.rng.chance(60) {
                vec![lit("$x")]
            } else {
                vec![]
            };
            body.push(Stmt::If {
                unless: false,
                cond: Expr::Bin("==", bx(lit("$x")), bx(self.small_atom())),
                then: vec![Stmt::Expr(Expr::Call(flow.into(), arg, None))],
                els: None,
            });
        }
        if self.rng.chance(30) {
            let v = self.var_name();
            body.push(Stmt::Assign(v.clone(), self.expr(d)));
            self.vars.push(v);
        }
        let last = match f {
            "reduce" => Expr::Bin("+", bx(lit("$m")), bx(lit("$x"))),
            "filter" | "any" | "all" => {
                if self.rng.chance(50) {
                    Expr::Bin("=~", bx(lit("$x")), bx(lit(*self.rng.pick(TYPES))))
                } else {
                    self.expr(d)
                }
            }
            _ => {
                if self.rng.chance(40) {
                    Expr::Str(vec![Part::Text("i-".into()), Part::Var("x".into())])
                } else {
                    self.expr(d)
                }
            }
        };
        body.push(Stmt::Expr(last));
        self.in_lambda = saved;
        self.vars = saved_vars;
        let mut args = Vec::new();
        if f == "reduce" && self.rng.chance(50) {
            args.push(self.small_atom());
        }
        let l = Some(Box::new(Lambda { params, body }));
        if f == "with" || self.rng.chance(30) {
            let mut a = vec![recv];
            a.extend(args);
            Expr::Call(f.into(), a, l)
        } else {
            Expr::Method(bx(recv), f.into(), args, l)
        }
    }

    fn templates_inline(&mut self) -> Expr {
        if self.rng.chance(50) {
            self.c("template:inline_epp");
            let t = *self.rng.pick(&[
                "'<%= $x %>|<%= $facts[role] %>'",
                "'<%- | $a = 1 | -%><%= $a + 1 %>'",
                "'<% [1,2].each |$i| { %><%= $i %>,<% } %>'",
                "'<%= $trusted[certname] -%> x'",
                "'<%= $nosuch %>'",
                "'<%| String $a |%><%= $a %>'",
            ]);
            let mut args = vec![lit(t)];
            if self.rng.chance(40) {
                args.push(Expr::Hash(vec![(sq("a"), self.small_atom())]));
            }
            Expr::Call("inline_epp".into(), args, None)
        } else {
            self.c("template:inline_template");
            let t = *self.rng.pick(&[
                "'<%= @role %>-<%= @facts[\"role\"] %>'",
                "'<%= [1,2].map { |x| x * 2 }.join(\",\") %>'",
                "'<% if @flag -%>yes<% else -%>no<% end -%>'",
                "'<%= scope[\"::role\"] %>'",
                "'<%= @nosuch.nil? %>'",
                "'<%= @role.upcase %><%# comment %>'",
                "'<%= @list.length %>'",
            ]);
            Expr::Call("inline_template".into(), vec![lit(t)], None)
        }
    }

    fn lookup(&mut self) -> Expr {
        self.c("hiera:lookup");
        let key = sq(self
            .rng
            .pick(&["fz::s", "fz::a", "fz::h", "fz::n", "fz::missing", "fz::i"]));
        match self.rng.below(4) {
            0 => Expr::Call("lookup".into(), vec![key], None),
            1 => Expr::Call(
                "lookup".into(),
                vec![key, lit("undef"), lit("undef"), sq("dflt")],
                None,
            ),
            _ => {
                let m = *self.rng.pick(&["first", "unique", "hash", "deep"]);
                self.c(match m {
                    "first" => "hiera:merge-first",
                    "unique" => "hiera:merge-unique",
                    "hash" => "hiera:merge-hash",
                    _ => "hiera:merge-deep",
                });
                let merge = if self.rng.chance(20) {
                    Expr::Hash(vec![(sq("strategy"), sq(m))])
                } else {
                    sq(m)
                };
                let mut args = vec![
                    key,
                    lit(*self.rng.pick(&["undef", "Data", "Array", "Hash"])),
                    merge,
                ];
                if self.rng.chance(50) {
                    args.push(self.small_atom());
                }
                Expr::Call("lookup".into(), args, None)
            }
        }
    }

    // ----------------------------------------------------------- statements

    fn new_resource(&mut self, virt: &'static str) -> Stmt {
        let ty = *self.rng.pick(&[
            "notify", "notify", "notify", "file", "user", "package", "group", "exec", "service",
        ]);
        self.c(match ty {
            "notify" => "res:notify",
            "file" => "res:file",
            "user" => "res:user",
            "package" => "res:package",
            "group" => "res:group",
            "exec" => "res:exec",
            _ => "res:service",
        });
        let t = self.title();
        let title = match self.rng.below(14) {
            0 => {
                self.c("title:illegal");
                lit(*self.rng.pick(&[
                    "''",
                    "undef",
                    "[]",
                    "1",
                    "['a', 'a']",
                    "{}",
                    "'a b'",
                    "default",
                ]))
            }
            1 => {
                self.c("title:array");
                Expr::Array(vec![sq(format!("{t}a")), sq(format!("{t}b"))])
            }
            2 if !self.titles.is_empty() => {
                self.c("title:duplicate");
                let (_, old) = self.rng.pick(&self.titles).clone();
                sq(&old)
            }
            3 => Expr::Str(vec![Part::Text(format!("{t}-")), Part::Expr(self.expr(1))]),
            _ => {
                if ty == "file" {
                    sq(format!("/tmp/fz/{t}"))
                } else {
                    sq(&t)
                }
            }
        };
        if let Expr::Lit(s) = &title {
            if s.starts_with('\'') {
                self.titles
                    .push((ty.to_string(), s.trim_matches('\'').to_string()));
            }
        }
        let mut attrs = Vec::new();
        let n = self.rng.below(4);
        for _ in 0..n {
            let a = self.attribute(ty);
            if !attrs.iter().any(|x: &Attr| x.name == a.name) || self.rng.chance(5) {
                attrs.push(a);
            }
        }
        if !virt.is_empty() || self.rng.chance(25) {
            self.c("meta:tag");
            let tag = *self.rng.pick(TAGS);
            self.tags.push(tag);
            attrs.push(attr("tag", sq(tag)));
        }
        Stmt::Resource {
            virt,
            ty: ty.into(),
            title,
            attrs,
        }
    }

    fn attribute(&mut self, ty: &str) -> Attr {
        if self.rng.chance(20) {
            return self.metaparam();
        }
        let (name, value) = match ty {
            "notify" => ("message", self.expr(3)),
            "file" => match self.rng.below(4) {
                0 => (
                    "ensure",
                    lit(*self.rng.pick(&[
                        "file",
                        "directory",
                        "absent",
                        "'link'",
                        "present",
                        "bogus",
                    ])),
                ),
                1 => ("content", self.expr(2)),
                2 => ("mode", sq(self.rng.pick(&["0644", "755", "u+x", "bad"]))),
                _ => ("owner", sq("root")),
            },
            "user" => match self.rng.below(4) {
                0 => ("ensure", lit("present")),
                1 => ("uid", lit(*self.rng.pick(&["1001", "'1002'", "-1"]))),
                2 => ("groups", Expr::Array(vec![sq("wheel"), sq("adm")])),
                _ => ("managehome", lit(*self.rng.pick(&["true", "'yes'", "1"]))),
            },
            "package" => (
                "ensure",
                lit(*self.rng.pick(&["installed", "'1.2.3'", "latest", "absent"])),
            ),
            "group" => ("gid", lit(*self.rng.pick(&["100", "'abc'"]))),
            "exec" => match self.rng.below(3) {
                0 => (
                    "command",
                    sq(self.rng.pick(&["/bin/true", "true", "echo hi"])),
                ),
                1 => ("path", Expr::Array(vec![sq("/bin"), sq("/usr/bin")])),
                _ => ("refreshonly", lit("true")),
            },
            _ => match self.rng.below(2) {
                0 => (
                    "ensure",
                    lit(*self.rng.pick(&["running", "stopped", "true"])),
                ),
                _ => (
                    "enable",
                    lit(*self.rng.pick(&["true", "false", "'manual'"])),
                ),
            },
        };
        attr(name, value)
    }

    fn metaparam(&mut self) -> Attr {
        self.c("meta:param");
        match self.rng.below(5) {
            0 if !self.titles.is_empty() => {
                let (ty, t) = self.rng.pick(&self.titles).clone();
                let name = *self.rng.pick(&["before", "require", "notify", "subscribe"]);
                attr(name, lit(format!("{}['{t}']", capitalize(&ty))))
            }
            1 => attr("alias", sq(format!("al{}", self.rng.below(3)))),
            2 => attr("noop", lit(*self.rng.pick(&["true", "'false'"]))),
            3 => attr("loglevel", sq(self.rng.pick(&["info", "warning", "bogus"]))),
            _ => attr(
                "tag",
                Expr::Array(vec![
                    sq("t2"),
                    sq(self.rng.pick(&["Bad Tag", "ok", "a::b"])),
                ]),
            ),
        }
    }

    /// A reference to a resource declared before (or not).
    fn reference(&mut self) -> Expr {
        if !self.titles.is_empty() && self.rng.chance(85) {
            let (ty, t) = self.rng.pick(&self.titles).clone();
            lit(format!("{}['{t}']", capitalize(&ty)))
        } else {
            lit(*self.rng.pick(&[
                "Notify['nosuch']",
                "Notify",
                "Class['fz']",
                "Notify['r1', 'r2']",
            ]))
        }
    }

    fn query(&mut self, depth: u32) -> Query {
        if depth > 0 && self.rng.chance(35) {
            let a = self.query(depth - 1);
            let b = self.query(depth - 1);
            let q = if self.rng.chance(50) {
                self.c("query:and");
                Query::And(Box::new(a), Box::new(b))
            } else {
                self.c("query:or");
                Query::Or(Box::new(a), Box::new(b))
            };
            return if self.rng.chance(40) {
                Query::Paren(Box::new(q))
            } else {
                q
            };
        }
        let op = if self.rng.chance(75) { "==" } else { "!=" };
        self.c(if op == "==" { "query:==" } else { "query:!=" });
        match self.rng.below(3) {
            0 => {
                self.c("query:tag");
                Query::Cmp("tag".into(), op, sq(self.rng.pick(TAGS)))
            }
            1 if !self.titles.is_empty() => {
                let (_, t) = self.rng.pick(&self.titles).clone();
                Query::Cmp("title".into(), op, sq(&t))
            }
            _ => Query::Cmp(
                self.rng.pick(&["message", "ensure", "noop"]).to_string(),
                op,
                self.small_atom(),
            ),
        }
    }

    fn collector(&mut self) -> Expr {
        self.c("collector");
        let ty = self
            .rng
            .pick(&["Notify", "Notify", "File", "User", "Fz::Thing"])
            .to_string();
        let q = if self.rng.chance(85) {
            Some(self.query(2))
        } else {
            None
        };
        Expr::Collect(ty, q.map(Box::new))
    }

    /// One statement of a body.
    pub fn stmt(&mut self, depth: u32) -> Stmt {
        let k = self.rng.below(if depth == 0 { 13 } else { 17 });
        match k {
            0..=2 => {
                self.c("stmt:assign");
                let reassign = !self.vars.is_empty() && self.rng.chance(6);
                let v = if reassign {
                    self.c("assign:reassign");
                    self.rng.pick(&self.vars).clone()
                } else if self.rng.chance(4) {
                    self.c("assign:builtin");
                    self.rng
                        .pick(&[
                            "facts",
                            "trusted",
                            "title",
                            "name",
                            "server_facts",
                            "module_name",
                        ])
                        .to_string()
                } else {
                    self.var_name()
                };
                let e = self.expr(3);
                self.vars.push(v.clone());
                Stmt::Assign(v, e)
            }
            3..=5 => self.new_resource(""),
            6 => {
                self.c("stmt:virtual");
                let v = if self.rng.chance(85) { "@" } else { "@@" };

                self.new_resource(v)
            }
            7 => {
                self.c("stmt:realize");
                let mut args = vec![self.reference()];
                if self.rng.chance(30) {
                    args.push(self.reference());
                }
                Stmt::Expr(Expr::Call("realize".into(), args, None))
            }
            8 => {
                let c = self.collector();
                let a = if self.rng.chance(35) {
                    self.c("collector:override");
                    Some(vec![attr("message", self.expr(1))])
                } else {
                    None
                };
                Stmt::Collect(c, a)
            }
            9 => self.chain(),
            10 => {
                self.c("stmt:defaults");
                let ty = self
                    .rng
                    .pick(&["Notify", "File", "Exec", "User"])
                    .to_string();
                let a = match ty.as_str() {
                    "Notify" => attr("message", self.expr(2)),
                    "File" => attr("mode", sq("0600")),
                    "Exec" => attr("path", sq("/bin")),
                    _ => attr("shell", sq("/bin/sh")),
                };
                Stmt::Defaults(ty, vec![a])
            }
            11 => {
                self.c("stmt:override");
                let r = match self.reference() {
                    Expr::Lit(t) if !t.contains('[') => lit(format!("{t}['nosuch']")),
                    r => r,
                };
                let a = if self.rng.chance(30) {
                    Attr {
                        name: "tag".into(),
                        op: "+>",
                        value: sq("t1"),
                    }
                } else {
                    attr("message", self.expr(1))
                };
                Stmt::Override(r, vec![a])
            }
            12 => {
                self.c("stmt:notice");
                let f = *self
                    .rng
                    .pick(&["notice", "warning", "info", "debug", "fail", "notice"]);
                Stmt::Expr(Expr::Call(f.into(), vec![self.expr(2)], None))
            }
            13 | 14 => {
                let unless = self.rng.chance(25);
                self.c(if unless { "stmt:unless" } else { "stmt:if" });
                let cond = if self.rng.chance(30) {
                    self.c("match-var");
                    Expr::Bin(
                        "=~",
                        bx(lit(*self.rng.pick(&[
                            "'abc-123'",
                            "$facts['role']",
                            "'x1'",
                        ]))),
                        bx(lit(*self.rng.pick(REGEXES))),
                    )
                } else {
                    self.expr(2)
                };
                let n = 1 + self.rng.below(2);
                let then = self.body(depth - 1, n, true);
                let els = if self.rng.chance(40) {
                    Some(self.body(depth - 1, 1, true))
                } else {
                    None
                };
                Stmt::If {
                    unless,
                    cond,
                    then,
                    els,
                }
            }
            15 => {
                self.c("stmt:case");
                let subject = if self.rng.chance(50) {
                    lit(*self.rng.pick(&[
                        "$facts['role']",
                        "'foo123'",
                        "1",
                        "undef",
                        "[1,2]",
                        "$facts['os']['family']",
                    ]))
                } else {
                    self.expr(2)
                };
                let mut arms = Vec::new();
                for _ in 0..1 + self.rng.below(3) {
                    let opt = match self.rng.below(6) {
                        0 => {
                            self.c("case:regex");
                            lit(*self.rng.pick(&["/(\\d+)/", "/^web/", "/o+/"]))
                        }
                        1 => {
                            self.c("case:splat");
                            Expr::Un(
                                "*",
                                bx(lit(*self.rng.pick(&[
                                    "undef",
                                    "['a', 'web']",
                                    "$facts['list']",
                                    "[]",
                                ]))),
                            )
                        }
                        2 => {
                            self.c("case:undef");
                            lit("undef")
                        }
                        3 => lit(*self.rng.pick(TYPES)),
                        _ => self.small_atom(),
                    };
                    let mut opts = vec![opt];
                    if self.rng.chance(20) {
                        opts.push(self.small_atom());
                    }
                    let mut body = self.body(depth - 1, 1, true);
                    if self.rng.chance(30) {
                        self.c("match-var");
                        let t = self.title();
                        body.push(Stmt::Resource {
                            virt: "",
                            ty: "notify".into(),
                            title: sq(&t),
                            attrs: vec![attr(
                                "message",
                                Expr::Str(vec![
                                    Part::Text("m=".into()),
                                    Part::Var("0".into()),
                                    Part::Text("/".into()),
                                    Part::Var("1".into()),
                                ]),
                            )],
                        });
                    }
                    arms.push((opts, body));
                }
                if self.rng.chance(60) {
                    self.c("case:default");
                    let b = self.body(depth - 1, 1, true);
                    arms.push((vec![lit("default")], b));
                }
                Stmt::Case(subject, arms)
            }
            _ => {
                // An iteration as a statement.
                self.c("stmt:iteration");
                let e = self.iteration(1);
                Stmt::Expr(e)
            }
        }
    }

    fn chain(&mut self) -> Stmt {
        self.c("stmt:chain");
        let n = 2 + self.rng.below(2);
        let mut items = Vec::new();
        let mut ops = Vec::new();
        for i in 0..n {
            let item = match self.rng.below(4) {
                0 => {
                    self.c("chain:collector");
                    Stmt::Expr(self.collector())
                }
                1 => self.new_resource(""),
                _ => {
                    if self.rng.chance(30) {
                        Stmt::Expr(Expr::Array(vec![self.reference(), self.reference()]))
                    } else {
                        Stmt::Expr(self.reference())
                    }
                }
            };
            items.push(item);
            if i > 0 {
                let op = *self.rng.pick(&["->", "~>", "<-", "<~"]);
                self.c(match op {
                    "->" => "chain:->",
                    "~>" => "chain:~>",
                    "<-" => "chain:<-",
                    _ => "chain:<~",
                });
                ops.push(op);
            }
        }
        Stmt::Chain(items, ops)
    }

    /// `n` statements in a new scope (variables do not leak out of it, but
    /// Puppet's `if` does not make a scope; this only keeps references
    /// plausible).
    fn body(&mut self, depth: u32, n: usize, nested: bool) -> Vec<Stmt> {
        let _ = nested;
        (0..n).map(|_| self.stmt(depth)).collect()
    }

    // -------------------------------------------------------------- classes

    fn param(&mut self, name: &str) -> Param {
        let ty = if self.rng.chance(70) {
            Some(
                self.rng
                    .pick(&[
                        "String",
                        "Integer",
                        "Optional[String]",
                        "Array[String]",
                        "Hash",
                        "Boolean",
                        "Variant[String,Integer]",
                        "Any",
                        "Enum['a','b']",
                        "Integer[0,10]",
                    ])
                    .to_string(),
            )
        } else {
            None
        };
        let default = if self.rng.chance(70) {
            self.c("class:param-default");
            Some(if self.rng.chance(50) {
                self.small_atom()
            } else {
                self.expr(2)
            })
        } else {
            None
        };
        Param {
            ty,
            name: name.into(),
            default,
        }
    }

    fn class_body(&mut self, n: usize) -> Vec<Stmt> {
        let saved = std::mem::take(&mut self.vars);
        let body = (0..n).map(|_| self.stmt(2)).collect();
        self.vars = saved;
        body
    }

    // ------------------------------------------------------------ top level

    /// A whole environment.
    pub fn env(&mut self, expression_mode: bool) -> Env {
        let roles = ["web", "db", "x1"];
        let role = *self.rng.pick(&roles);
        let family = *self.rng.pick(&["Debian", "RedHat"]);
        let node = format!("{role}01.example.com");
        let facts = json!({
            "role": role,
            "os": {"family": family, "release": {"major": "12"}},
            "numstr": *self.rng.pick(&["0x1F", "010", "1e3", "1.5", " 2", "42"]),
            "list": ["a", "b", "web"],
            "flag": self.rng.chance(50),
        });
        let mut files: Vec<(String, Body)> = Vec::new();
        let mut site = Vec::new();

        if expression_mode {
            self.c("mode:expression");
            let n = 1 + self.rng.below(4);
            for _ in 0..n {
                let v = self.var_name();
                let e = self.expr(3);
                site.push(Stmt::Assign(v.clone(), e));
                self.vars.push(v.clone());
                let t = self.title();
                let shown = match self.rng.below(4) {
                    0 => Expr::Call("String".into(), vec![lit(format!("${v}"))], None),
                    1 => Expr::Str(vec![Part::Var(v.clone())]),
                    2 => Expr::Call("type".into(), vec![lit(format!("${v}"))], None),
                    _ => lit(format!("${v}")),
                };
                site.push(Stmt::Resource {
                    virt: "",
                    ty: "notify".into(),
                    title: sq(&t),
                    attrs: vec![attr("message", shown)],
                });
            }
            if self.rng.chance(30) {
                site.push(self.stmt(2));
            }
            files.push(("manifests/site.pp".into(), Body::Manifest(site)));
            if self.rng.chance(40) {
                self.hiera(&mut files);
            }
            return Env { node, facts, files };
        }

        self.c("mode:catalog");
        // Module fz: classes, a define, templates.
        let with_module = self.rng.chance(75);
        let mut module_files = Vec::new();
        if with_module {
            self.classes.push("fz".into());
            let n_sub = self.rng.below(3);
            for i in 0..n_sub {
                self.classes.push(format!("fz::c{i}"));
            }
            if self.rng.chance(60) {
                self.defines.push("fz::thing".into());
            }
            // fz
            let mut ps = Vec::new();
            for p in ["p1", "p2"].iter().take(self.rng.below(3)) {
                ps.push(self.param(p));
            }
            self.c("class");
            let n = 1 + self.rng.below(3);
            let mut body = self.class_body(n);
            for c in self.classes.clone().iter().skip(1) {
                if self.rng.chance(60) {
                    let kw = *self.rng.pick(&["include", "contain", "require"]);
                    self.c("class:include");
                    body.push(Stmt::Expr(Expr::Call(kw.into(), vec![sq(c)], None)));
                }
            }
            let mut tmpl_calls = Vec::new();
            if self.rng.chance(35) {
                self.c("template:epp-file");
                module_files.push((
                    "modules/fz/templates/t.epp".to_string(),
                    Body::Lines(
                        [
                            "<%- | String $a, Integer $n = 2, $rest = undef | -%>",
                            "a=<%= $a %> n=<%= $n * 2 %>",
                            "<% [1, 2].each |$i| { -%>",
                            "i=<%= $i %><%= $rest %>",
                            "<% } -%>",
                            "role=<%= $facts['role'] %> p=<%= $fz::p1 %>",
                        ]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                    ),
                ));
                let hash = match self.rng.below(4) {
                    0 => Expr::Hash(vec![(sq("a"), sq("x"))]),
                    1 => Expr::Hash(vec![(sq("a"), sq("x")), (sq("n"), lit("5"))]),
                    2 => Expr::Hash(vec![(sq("n"), sq("five"))]),
                    _ => Expr::Hash(vec![(sq("a"), sq("x")), (sq("zz"), lit("1"))]),
                };
                tmpl_calls.push(Expr::Call("epp".into(), vec![sq("fz/t.epp"), hash], None));
            }
            if self.rng.chance(35) {
                self.c("template:erb-file");
                module_files.push((
                    "modules/fz/templates/t.erb".to_string(),
                    Body::Lines(
                        [
                            "role=<%= @role %> p1=<%= @p1 %>",
                            "<% [1, 2].each do |i| -%>",
                            "i=<%= i %>",
                            "<% end -%>",
                            "<%= scope['fz::p2'] %>|<%= @facts['os']['family'] %>",
                            "<%= @list.sort.join(',') if @list %>",
                        ]
                        .iter()
                        .map(|s| s.to_string())
                        .collect(),
                    ),
                ));
                tmpl_calls.push(Expr::Call("template".into(), vec![sq("fz/t.erb")], None));
            }
            for call in tmpl_calls {
                let t = self.title();
                body.push(Stmt::Resource {
                    virt: "",
                    ty: "notify".into(),
                    title: sq(&t),
                    attrs: vec![attr("message", call)],
                });
            }
            let inherits = if self.rng.chance(20) && self.classes.len() > 1 {
                self.c("class:inherits-into");
                None
            } else {
                None
            };
            let class = Stmt::Class {
                name: "fz".into(),
                params: ps,
                inherits,
                body,
            };
            module_files.insert(
                0,
                (
                    "modules/fz/manifests/init.pp".into(),
                    Body::Manifest(vec![class]),
                ),
            );
            for i in 0..n_sub {
                let name = format!("fz::c{i}");
                self.c("class");
                let inherits = if self.rng.chance(35) {
                    self.c("class:inherits");
                    Some("fz".to_string())
                } else {
                    None
                };
                let mut ps = Vec::new();
                if self.rng.chance(50) {
                    ps.push(self.param("q"));
                }
                let n = 1 + self.rng.below(3);
                let mut body = self.class_body(n);
                if inherits.is_some() && self.rng.chance(50) {
                    body.push(Stmt::Resource {
                        virt: "",
                        ty: "notify".into(),
                        title: sq(format!("inh{i}")),
                        attrs: vec![attr(
                            "message",
                            Expr::Str(vec![Part::Text("p1=".into()), Part::Var("p1".into())]),
                        )],
                    });
                }
                module_files.push((
                    format!("modules/fz/manifests/c{i}.pp"),
                    Body::Manifest(vec![Stmt::Class {
                        name,
                        params: ps,
                        inherits,
                        body,
                    }]),
                ));
            }
            if !self.defines.is_empty() {
                self.c("define");
                let ps = vec![self.param("msg"), self.param("n")];
                let saved = std::mem::replace(
                    &mut self.vars,
                    vec!["msg".into(), "n".into(), "title".into(), "name".into()],
                );
                let mut body = vec![Stmt::Resource {
                    virt: "",
                    ty: "notify".into(),
                    title: Expr::Str(vec![Part::Text("thing-".into()), Part::Var("title".into())]),
                    attrs: vec![attr(
                        "message",
                        Expr::Str(vec![
                            Part::Var("msg".into()),
                            Part::Text(" ".into()),
                            Part::Var("n".into()),
                        ]),
                    )],
                }];
                for _ in 0..self.rng.below(2) {
                    body.push(self.stmt(1));
                }
                self.vars = saved;
                module_files.push((
                    "modules/fz/manifests/thing.pp".into(),
                    Body::Manifest(vec![Stmt::Define {
                        name: "fz::thing".into(),
                        params: ps,
                        body,
                    }]),
                ));
            }
        }

        // site.pp: top-level statements, maybe nodes.
        let mut top = Vec::new();
        for _ in 0..1 + self.rng.below(4) {
            top.push(self.stmt(2));
        }
        let mut decls = Vec::new();
        if with_module {
            match self.rng.below(4) {
                0 => {
                    self.c("class:resource-like");
                    let mut a = Vec::new();
                    if self.rng.chance(70) {
                        a.push(attr("p1", self.small_atom()));
                    }
                    decls.push(Stmt::Resource {
                        virt: "",
                        ty: "class".into(),
                        title: sq("fz"),
                        attrs: a,
                    });
                }
                _ => {
                    self.c("class:include");
                    decls.push(Stmt::Expr(Expr::Call(
                        "include".into(),
                        vec![sq("fz")],
                        None,
                    )));
                }
            }
            for d in self.defines.clone() {
                for _ in 0..1 + self.rng.below(2) {
                    self.c("define:instance");
                    let t = self.title();
                    let mut a = Vec::new();
                    if self.rng.chance(70) {
                        a.push(attr("msg", self.small_atom()));
                    }
                    if self.rng.chance(40) {
                        a.push(attr("n", self.small_atom()));
                    }
                    decls.push(Stmt::Resource {
                        virt: if self.rng.chance(15) { "@" } else { "" },
                        ty: d.clone(),
                        title: sq(&t),
                        attrs: a,
                    });
                    self.titles.push(("fz::thing".into(), t));
                }
            }
        }
        if self.rng.chance(50) {
            self.c("node");
            let mut nodes = Vec::new();
            let mut body = decls;
            for _ in 0..self.rng.below(3) {
                body.push(self.stmt(2));
            }
            let matcher = match self.rng.below(4) {
                0 => {
                    self.c("node:regex");
                    "/^web\\d+/".to_string()
                }
                1 => {
                    self.c("node:name");
                    format!("'{node}'")
                }
                2 => {
                    self.c("node:name");
                    format!(
                        "'{}', 'other.example.com'",
                        node.split('.').next().unwrap_or("x")
                    )
                }
                _ => "/example/".into(),
            };
            nodes.push(Stmt::Node(vec![matcher], body));
            if self.rng.chance(60) {
                self.c("node:default");
                let b = vec![self.new_resource("")];
                nodes.push(Stmt::Node(vec!["default".into()], b));
            }
            top.extend(nodes);
        } else {
            top.extend(decls);
        }
        if self.rng.chance(20) {
            top.push(self.stmt(2));
        }
        files.push(("manifests/site.pp".into(), Body::Manifest(top)));
        files.extend(module_files);
        if self.rng.chance(40) {
            self.hiera(&mut files);
        }
        Env { node, facts, files }
    }

    fn hiera(&mut self, files: &mut Vec<(String, Body)>) {
        self.c("hiera:data");
        let lines = |xs: &[&str]| Body::Lines(xs.iter().map(|s| s.to_string()).collect());
        files.push((
            "hiera.yaml".into(),
            lines(&[
                "---",
                "version: 5",
                "defaults:",
                "  datadir: data",
                "  data_hash: yaml_data",
                "hierarchy:",
                "  - name: node",
                "    path: \"nodes/%{trusted.certname}.yaml\"",
                "  - name: role",
                "    path: \"role/%{facts.role}.yaml\"",
                "  - name: common",
                "    path: common.yaml",
            ]),
        ));
        let val = |g: &mut Gen, key: &str| -> String {
            match key {
                "fz::a" => format!(
                    "[{}]",
                    (0..1 + g.rng.below(3))
                        .map(|_| g
                            .rng
                            .pick(&["a", "b", "c", "1", "'%{facts.role}'"])
                            .to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                "fz::h" => format!(
                    "{{{}: {{x: {}, y: [{}]}}, {}: {}}}",
                    g.rng.pick(&["k1", "k2"]),
                    g.rng.pick(&["1", "two", "~"]),
                    g.rng.pick(&["1", "2"]),
                    g.rng.pick(&["k3", "k1"]),
                    g.rng.pick(&["v", "'%{facts.os.family}'"])
                ),
                "fz::n" => g.rng.pick(&["1", "0x10", "'7'", "1.5"]).to_string(),
                "fz::p1" => g
                    .rng
                    .pick(&["from-hiera", "5", "[a]", "'%{facts.role}'"])
                    .to_string(),
                "fz::i" => "\"%{lookup('fz::s')}-i\"".to_string(),
                _ => g
                    .rng
                    .pick(&["s-%{facts.role}", "plain", "'%{::role}'"])
                    .to_string(),
            }
        };
        let keys = ["fz::a", "fz::h", "fz::s", "fz::n", "fz::p1", "fz::i"];
        let mut levels = vec![("data/common.yaml".to_string(), 5)];
        if self.rng.chance(60) {
            levels.push((
                format!("data/role/{}.yaml", self.rng.pick(&["web", "db", "x1"])),
                3,
            ));
        }
        if self.rng.chance(30) {
            levels.push(("data/nodes/web01.example.com.yaml".into(), 2));
        }
        for (path, n) in levels {
            let mut l = vec!["---".to_string()];
            for _ in 0..n {
                let k = *self.rng.pick(&keys);
                if l.iter().any(|x| x.starts_with(&format!("{k}:"))) {
                    continue;
                }
                let v = val(self, k);
                l.push(format!("{k}: {v}"));
            }
            if path == "data/common.yaml" && self.rng.chance(30) {
                self.c("hiera:lookup_options");
                l.push("lookup_options:".into());
                l.push("  fz::h:".into());
                l.push(format!(
                    "    merge: {}",
                    self.rng.pick(&["deep", "hash", "first"])
                ));
                l.push("  fz::a:".into());
                l.push("    merge: unique".into());
            }
            files.push((path, Body::Lines(l)));
        }
    }
}

fn capitalize(ty: &str) -> String {
    ty.split("::")
        .map(|s| {
            let mut c = s.chars();
            match c.next() {
                Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join("::")
}

/// The environment of seed `seed`, index `i`.
pub fn generate(seed: u64, i: u64, cov: &mut Coverage) -> Env {
    let mut mix = Rng::new(seed ^ i.wrapping_mul(0xA24B_AED4_963E_E407));
    let s = mix.next_u64();
    let mut g = Gen::new(s, cov);
    let expression_mode = g.rng.chance(35);
    g.env(expression_mode)
}
