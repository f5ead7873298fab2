//! `oware._oware`: the Python extension over the rules core, the engine and
//! the endgame tables. The pure-Python package `oware` (python/oware/)
//! re-exports it and adds the OpenSpiel game and the PettingZoo
//! environment.

use pyo3::prelude::*;

mod batch;
mod engine;
mod errors;
mod rules;

#[pymodule]
fn _oware(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<rules::PyPosition>()?;
    m.add_class::<rules::PyTrace>()?;
    m.add_class::<rules::PyOutcome>()?;
    m.add_class::<rules::PyGame>()?;
    m.add_class::<rules::PyRecord>()?;
    m.add_function(wrap_pyfunction!(rules::read_ogn, m)?)?;
    m.add_function(wrap_pyfunction!(rules::read_ogn_all, m)?)?;
    m.add_function(wrap_pyfunction!(rules::parse_moves, m)?)?;
    m.add_function(wrap_pyfunction!(rules::perft, m)?)?;
    m.add_function(wrap_pyfunction!(rules::divide, m)?)?;
    m.add_class::<engine::PyScore>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<engine::PyMoveAnalysis>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PyTablebase>()?;
    m.add_class::<engine::PyTbEntry>()?;
    m.add_function(wrap_pyfunction!(engine::level_profile, m)?)?;
    m.add_function(wrap_pyfunction!(batch::play_random_games, m)?)?;
    m.add_function(wrap_pyfunction!(batch::observation, m)?)?;
    let reasons: Vec<&str> = rules::REASONS.iter().map(|r| r.as_str()).collect();
    m.add("END_REASONS", pyo3::types::PyTuple::new(m.py(), reasons)?)?;
    m.add("MIN_LEVEL", oware_engine::Level::MIN.get())?;
    m.add("MAX_LEVEL", oware_engine::Level::MAX.get())?;
    Ok(())
}
