use super::*;

fn kind(t: &Tok) -> &'static str {
    match t {
        Tok::Name(_) => "NAME",
        Tok::Word(_) => "WORD",
        Tok::ClassRef(_) => "CLASSREF",
        Tok::Variable(_) => "VARIABLE",
        Tok::Number(_) => "NUMBER",
        Tok::Str(_) => "STRING",
        Tok::DqPre(_) => "DQPRE",
        Tok::DqMid(_) => "DQMID",
        Tok::DqPost(_) => "DQPOST",
        Tok::Regex(_) => "REGEX",
        Tok::Heredoc(_) => "HEREDOC",
        Tok::Boolean(_) => "BOOLEAN",
        Tok::Case => "CASE",
        Tok::Class => "CLASS",
        Tok::Default => "DEFAULT",
        Tok::Define => "DEFINE",
        Tok::If => "IF",
        Tok::Elsif => "ELSIF",
        Tok::Else => "ELSE",
        Tok::Inherits => "INHERITS",
        Tok::Node => "NODE",
        Tok::And => "AND",
        Tok::Or => "OR",
        Tok::Undef => "UNDEF",
        Tok::In => "IN",
        Tok::Unless => "UNLESS",
        Tok::Function => "FUNCTION",
        Tok::Type => "TYPE",
        Tok::Attr => "ATTR",
        Tok::Private => "PRIVATE",
        Tok::LBrack => "LBRACK",
        Tok::ListStart => "LISTSTART",
        Tok::RBrack => "RBRACK",
        Tok::LBrace => "LBRACE",
        Tok::SelBrace => "SELBRACE",
        Tok::RBrace => "RBRACE",
        Tok::LParen => "LPAREN",
        Tok::WsLParen => "WSLPAREN",
        Tok::RParen => "RPAREN",
        Tok::Equals => "EQUALS",
        Tok::Appends => "APPENDS",
        Tok::Deletes => "DELETES",
        Tok::IsEqual => "ISEQUAL",
        Tok::NotEqual => "NOTEQUAL",
        Tok::Not => "NOT",
        Tok::Match => "MATCH",
        Tok::NoMatch => "NOMATCH",
        Tok::Less => "LESSTHAN",
        Tok::LessEq => "LESSEQUAL",
        Tok::Greater => "GREATERTHAN",
        Tok::GreaterEq => "GREATEREQUAL",
        Tok::Plus => "PLUS",
        Tok::Minus => "MINUS",
        Tok::Times => "TIMES",
        Tok::Div => "DIV",
        Tok::Modulo => "MODULO",
        Tok::LShift => "LSHIFT",
        Tok::RShift => "RSHIFT",
        Tok::InEdge => "IN_EDGE",
        Tok::InEdgeSub => "IN_EDGE_SUB",
        Tok::OutEdge => "OUT_EDGE",
        Tok::OutEdgeSub => "OUT_EDGE_SUB",
        Tok::FArrow => "FARROW",
        Tok::PArrow => "PARROW",
        Tok::Comma => "COMMA",
        Tok::Semic => "SEMIC",
        Tok::Colon => "COLON",
        Tok::Dot => "DOT",
        Tok::QMark => "QMARK",
        Tok::Pipe => "PIPE",
        Tok::At => "AT",
        Tok::AtAt => "ATAT",
        Tok::LCollect => "LCOLLECT",
        Tok::RCollect => "RCOLLECT",
        Tok::LLCollect => "LLCOLLECT",
        Tok::RRCollect => "RRCOLLECT",
        Tok::Tilde => "TILDE",
        Tok::Other => "OTHER",
        Tok::EppStart => "EPP_START",
        Tok::RenderString(_) => "RENDER_STRING",
        Tok::RenderExpr => "RENDER_EXPR",
        Tok::EppEnd => "EPP_END",
        Tok::EppEndTrim => "EPP_END_TRIM",
    }
}

fn value(t: &Tok) -> String {
    match t {
        Tok::Regex(s) => s.clone(),
        other => other.display_value(),
    }
}

#[test]
fn zz_dump_for_ruby_comparison() {
    let Ok(path) = std::env::var("PVERIFY_LEX_DUMP") else {
        return;
    };
    let snips: Vec<String> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut out = String::new();
    for src in snips {
        let v = match lex(&src) {
            Ok(toks) => serde_json::json!({
                "src": src,
                "tokens": toks.iter().map(|t| serde_json::json!([kind(&t.tok), value(&t.tok), t.span.start, t.span.end])).collect::<Vec<_>>(),
            }),
            Err(e) => {
                let (line, col) = match e.offset {
                    Some(o) => {
                        let (l, c) = crate::syntax::span::LineIndex::new(src.as_bytes())
                            .line_col(src.as_bytes(), o);
                        (serde_json::json!(l), serde_json::json!(c))
                    }
                    None => (serde_json::Value::Null, serde_json::Value::Null),
                };
                serde_json::json!({"src": src, "error": e.message, "line": line, "col": col})
            }
        };
        out.push_str(&serde_json::to_string(&v).unwrap());
        out.push('\n');
    }
    std::fs::write(std::env::var("PVERIFY_LEX_OUT").unwrap(), out).unwrap();
}
