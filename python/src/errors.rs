//! The core's errors as Python exceptions.
//!
//! Every exception derives from `oware.OwareError` (itself a `ValueError`,
//! since nearly all of them are bad input) and carries `code`, a stable
//! snake_case identifier derived here from the error enum's variant, and
//! `message`, the core's own text. Some carry more: `rule` (the rule id
//! that forbids a move), `line` and `column` (OGN and position strings).

use oware_core::{
    GameError, IllegalMove, OgnError, OgnErrorKind, ParseMoveError, ParsePositionError,
    PositionError,
};
use oware_tablebase::TbError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    oware,
    OwareError,
    PyValueError,
    "Base of every error raised by the oware package; `code` is a stable identifier, `message` the core's text."
);
pyo3::create_exception!(
    oware,
    PositionParseError,
    OwareError,
    "A position string or setup that is not a valid position."
);
pyo3::create_exception!(
    oware,
    MoveParseError,
    OwareError,
    "Text that is not a move letter or a move list."
);
pyo3::create_exception!(
    oware,
    IllegalMoveError,
    OwareError,
    "A move the rules forbid in this position; `rule` names the rule."
);
pyo3::create_exception!(
    oware,
    GameStateError,
    OwareError,
    "An action refused by the state of a game (it is over, nothing to undo)."
);
pyo3::create_exception!(
    oware,
    OgnParseError,
    OwareError,
    "An OGN game record that cannot be read; `line` and `column` say where."
);
pyo3::create_exception!(
    oware,
    TablebaseError,
    OwareError,
    "Endgame tables that cannot be built, opened or read."
);
pyo3::create_exception!(
    oware,
    EngineError,
    OwareError,
    "A search request the engine cannot carry out (e.g. no limit)."
);

/// Registers the exception classes in the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("OwareError", py.get_type::<OwareError>())?;
    m.add("PositionParseError", py.get_type::<PositionParseError>())?;
    m.add("MoveParseError", py.get_type::<MoveParseError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("GameStateError", py.get_type::<GameStateError>())?;
    m.add("OgnParseError", py.get_type::<OgnParseError>())?;
    m.add("TablebaseError", py.get_type::<TablebaseError>())?;
    m.add("EngineError", py.get_type::<EngineError>())?;
    Ok(())
}

/// An exception of class `T` with `code`, `message` and extra attributes.
fn raise<T: pyo3::PyTypeInfo>(code: &str, message: String, extra: &[(&str, Extra)]) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<T, _>(message.clone());
        let value = err.value(py);
        let set = || -> PyResult<()> {
            value.setattr("code", code)?;
            value.setattr("message", &message)?;
            for (name, v) in extra {
                match v {
                    Extra::Str(s) => value.setattr(*name, s)?,
                    Extra::Int(n) => value.setattr(*name, n)?,
                }
            }
            Ok(())
        };
        match set() {
            Ok(()) => err,
            Err(e) => e,
        }
    })
}

enum Extra {
    Str(String),
    Int(usize),
}

/// A position string or setup that is wrong.
pub fn position_parse(e: &ParsePositionError) -> PyErr {
    let extra = match e {
        ParsePositionError::BadCount { column, .. }
        | ParsePositionError::BadSide { column, .. } => {
            vec![("column", Extra::Int(*column))]
        }
        ParsePositionError::FieldCount { .. } | ParsePositionError::Invalid(_) => vec![],
    };
    let code = e.code();
    raise::<PositionParseError>(code, e.to_string(), &extra)
}

/// A setup whose seeds do not add up.
pub fn position(e: &PositionError) -> PyErr {
    raise::<PositionParseError>(e.code(), e.to_string(), &[])
}

/// Text that is not a move.
pub fn move_parse(e: &ParseMoveError) -> PyErr {
    let extra = match e {
        ParseMoveError::BadLetter { column, .. } => vec![("column", Extra::Int(*column))],
        ParseMoveError::Empty | ParseMoveError::TooLong { .. } => vec![],
    };
    let code = e.code();
    raise::<MoveParseError>(code, e.to_string(), &extra)
}

/// A move the rules forbid; `mv` is its letter, for the message.
pub fn illegal(e: IllegalMove, mv: char) -> PyErr {
    raise::<IllegalMoveError>(
        e.code(),
        format!("illegal move {mv}: {e} ({})", e.rule()),
        &[("rule", Extra::Str(e.rule().to_string()))],
    )
}

/// An action refused by a game.
pub fn game(e: &GameError) -> PyErr {
    match e {
        GameError::Over => raise::<GameStateError>(e.code(), e.to_string(), &[]),
        GameError::NothingToUndo => raise::<GameStateError>(e.code(), e.to_string(), &[]),
        GameError::Illegal { reason, .. } => raise::<IllegalMoveError>(
            reason.code(),
            e.to_string(),
            &[("rule", Extra::Str(reason.rule().to_string()))],
        ),
    }
}

/// An OGN record that cannot be read.
pub fn ogn(e: &OgnError) -> PyErr {
    // The codes are the core's own, shared with the web server.
    let code = e.kind.code();
    let mut extra = vec![
        ("line", Extra::Int(e.line)),
        ("column", Extra::Int(e.column)),
    ];
    if let OgnErrorKind::Move(GameError::Illegal { reason, .. }) = &e.kind {
        extra.push(("rule", Extra::Str(reason.rule().to_string())));
    }
    raise::<OgnParseError>(code, e.to_string(), &extra)
}

/// Tables that cannot be built or opened.
pub fn tablebase(e: &TbError) -> PyErr {
    let code = match e {
        TbError::Io { .. } => "io",
        TbError::Corrupt { .. } => "corrupt",
        TbError::PaletteOverflow { .. } => "palette_overflow",
        TbError::TooManySeeds { .. } => "too_many_seeds",
        TbError::Remote { .. } => "remote_rank_failed",
    };
    raise::<TablebaseError>(code, e.to_string(), &[])
}

/// A tablebase error of the binding's own (no files in a directory...).
pub fn tablebase_other(code: &str, message: String) -> PyErr {
    raise::<TablebaseError>(code, message, &[])
}

/// A search request the engine cannot carry out.
pub fn engine(code: &str, message: String) -> PyErr {
    raise::<EngineError>(code, message, &[])
}

/// A value of the wrong kind for a move, a side... (the binding's own check).
pub fn bad_argument(code: &str, message: String) -> PyErr {
    raise::<OwareError>(code, message, &[])
}
