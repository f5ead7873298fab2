//! The engine and the endgame tables: searches with depth, time or node
//! limits, the analysis of every move, the playing levels, and tables built
//! or opened and probed. Searches and builds release the GIL.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oware_core::{Game, Move};
use oware_engine::{levels, Engine, EngineOptions, Level, Limits, Score, StopHandle};
use oware_tablebase::{Tablebase, TbResult};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;
use crate::rules::{game_arg, position_arg};

fn pv_letters(pv: &[Move]) -> Vec<String> {
    pv.iter().map(|m| m.letter().to_string()).collect()
}

/// A search's value for the side to move.
#[pyclass(name = "Score", module = "oware", frozen, eq, ord)]
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PyScore {
    score: Score,
}

#[pymethods]
impl PyScore {
    /// Centi-seeds of expected final margin; proven results are ±10000
    /// less the plies to the end (as UCI reports them).
    #[getter]
    fn centiseeds(&self) -> i32 {
        self.score.centiseeds()
    }

    /// The engine's raw value.
    #[getter]
    fn raw(&self) -> i32 {
        self.score.raw()
    }

    /// True for a proven win or loss.
    #[getter]
    fn is_proven(&self) -> bool {
        self.score.is_proven()
    }

    /// Plies to the end of a proven result (negative for a loss); `None`
    /// for a heuristic value or a tablebase result without a distance.
    #[getter]
    fn plies_to_end(&self) -> Option<i32> {
        self.score.plies_to_end()
    }

    fn __str__(&self) -> String {
        self.score.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Score('{}', centiseeds={})",
            self.score,
            self.score.centiseeds()
        )
    }
}

/// What a search found.
#[pyclass(name = "SearchResult", module = "oware", frozen, get_all)]
pub struct PySearchResult {
    /// The move to play (`None` when the game is over).
    pub best: Option<String>,
    /// The value for the side to move.
    pub score: PyScore,
    /// The principal variation, `best` first.
    pub pv: Vec<String>,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds spent.
    pub elapsed: f64,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best={}, score='{}', pv='{}', depth={}, nodes={})",
            self.best
                .as_ref()
                .map_or("None".to_string(), |b| format!("'{b}'")),
            self.score.score,
            self.pv.concat(),
            self.depth,
            self.nodes
        )
    }
}

/// One legal move's value and principal variation.
#[pyclass(name = "MoveAnalysis", module = "oware", frozen, get_all)]
pub struct PyMoveAnalysis {
    /// The move's letter.
    #[pyo3(name = "move")]
    pub mv: String,
    /// Its value for the side that plays it.
    pub score: PyScore,
    /// The principal variation, starting with the move.
    pub pv: Vec<String>,
}

#[pymethods]
impl PyMoveAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "MoveAnalysis(move='{}', score='{}', pv='{}')",
            self.mv,
            self.score.score,
            self.pv.concat()
        )
    }
}

fn limits(
    depth: Option<u32>,
    movetime: Option<f64>,
    nodes: Option<u64>,
    level: Option<u8>,
    seed: u64,
) -> PyResult<Limits> {
    let movetime = match movetime {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(errors::engine(
                "bad_movetime",
                format!("movetime must be a positive number of seconds, found {t}"),
            ))
        }
    };
    let level = match level {
        None => None,
        Some(n) if (Level::MIN.get()..=Level::MAX.get()).contains(&n) => Some(Level::new(n)),
        Some(n) => {
            return Err(errors::engine(
                "bad_level",
                format!(
                    "level must be from {} to {}, found {n}",
                    Level::MIN.get(),
                    Level::MAX.get()
                ),
            ))
        }
    };
    if depth == Some(0) {
        return Err(errors::engine(
            "bad_depth",
            "depth must be at least 1".to_string(),
        ));
    }
    if depth.is_none() && movetime.is_none() && nodes.is_none() && level.is_none() {
        return Err(errors::engine(
            "no_limit",
            "give a depth, a movetime (seconds), a node count or a level: an unlimited search would never return".to_string(),
        ));
    }
    Ok(Limits {
        depth,
        nodes,
        movetime,
        clock: None,
        level,
        seed,
    })
}

/// Runs `work` (a search) on a helper thread while this thread, without
/// the GIL, waits for it; every 50 ms it takes the GIL back to run Python's
/// signal handlers, so Ctrl-C stops the search (through `stop`) and raises
/// `KeyboardInterrupt`.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &StopHandle,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let handle = scope.spawn(work);
        loop {
            let finished = py.detach(|| {
                for _ in 0..10 {
                    if handle.is_finished() {
                        return true;
                    }
                    std::thread::sleep(Duration::from_millis(5));
                }
                handle.is_finished()
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                stop.stop();
                let _ = py.detach(|| handle.join());
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| errors::engine("panic", "the search panicked".to_string()))
    })
}

/// The engine: iterative-deepening search with a transposition table,
/// exact end rules and optional endgame tables. One search at a time per
/// engine; `stop()` from another thread ends a running search.
#[pyclass(name = "Engine", module = "oware", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: StopHandle,
}

impl PyEngine {
    fn with_engine<T>(&self, f: impl FnOnce(&mut Engine) -> T) -> T {
        let mut guard = match self.engine.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        f(&mut guard)
    }
}

#[pymethods]
impl PyEngine {
    /// A new engine with a transposition table of `hash_mb` MiB and, if
    /// given, endgame tables (a `Tablebase`, or a directory of table files).
    #[new]
    #[pyo3(signature = (hash_mb=64, tablebase=None))]
    fn new(py: Python<'_>, hash_mb: usize, tablebase: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let tables = match tablebase {
            None => None,
            Some(t) if t.is_none() => None,
            Some(t) => Some(tablebase_arg(py, t)?),
        };
        let mut engine = Engine::new(EngineOptions {
            hash_mb: hash_mb.max(1),
            tablebase_dir: None,
        });
        if tables.is_some() {
            engine.set_tablebase(tables);
        }
        let stop = StopHandle::default();
        Ok(PyEngine {
            engine: Mutex::new(engine),
            stop,
        })
    }

    /// Searches the position (of a `Game`, whose history since the last
    /// capture counts for repetitions, or of a `Position` / position
    /// string) within the limits: `depth` plies, `movetime` seconds,
    /// `nodes`, or a playing `level` 1–10 (its own budget unless other
    /// limits are given; `seed` makes the weaker levels' draws repeatable).
    /// The GIL is released while it runs.
    #[pyo3(signature = (game, *, depth=None, movetime=None, nodes=None, level=None, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
        level: Option<u8>,
        seed: u64,
    ) -> PyResult<PySearchResult> {
        let game: Game = game_arg(game)?;
        let limits = limits(depth, movetime, nodes, level, seed)?;
        let stop = self.stop.clone();
        stop.reset();
        let r = interruptible(py, &stop, || {
            self.with_engine(|e| e.search_with(&game, &limits, &stop, &mut |_| {}))
        })?;
        Ok(PySearchResult {
            best: r.best.map(|m| m.letter().to_string()),
            score: PyScore { score: r.score },
            pv: pv_letters(&r.pv),
            depth: r.depth,
            nodes: r.nodes,
            elapsed: r.elapsed.as_secs_f64(),
        })
    }

    /// The best move's letter (`None` when the game is over): a search with
    /// the same limits as `search`.
    #[pyo3(signature = (game, *, depth=None, movetime=None, nodes=None, level=None, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn best_move(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
        level: Option<u8>,
        seed: u64,
    ) -> PyResult<Option<String>> {
        Ok(self
            .search(py, game, depth, movetime, nodes, level, seed)?
            .best)
    }

    /// The value and principal variation of every legal move, best first.
    /// An analysis searches in a table of its own (16 MiB, cleared first),
    /// so with `depth` or `nodes` it gives the values and order of `oware
    /// analyze`, the server and the browser with the same tables, whatever
    /// `hash_mb` and what the engine searched before.
    #[pyo3(signature = (game, *, depth=None, movetime=None, nodes=None))]
    fn analyze(
        &self,
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        depth: Option<u32>,
        movetime: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Vec<PyMoveAnalysis>> {
        let game: Game = game_arg(game)?;
        let limits = limits(depth, movetime, nodes, None, 0)?;
        let stop = self.stop.clone();
        stop.reset();
        let moves = interruptible(py, &stop, || {
            self.with_engine(|e| e.analyze_with(&game, &limits, &stop, &mut |_| {}))
        })?;
        Ok(moves
            .into_iter()
            .map(|m| PyMoveAnalysis {
                mv: m.mv.letter().to_string(),
                score: PyScore { score: m.score },
                pv: pv_letters(&m.pv),
            })
            .collect())
    }

    /// Stops the running search (from another thread); it returns its best
    /// move so far.
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets what earlier searches learnt (the transposition table).
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| self.with_engine(|e| e.new_game()));
    }

    /// Uses endgame tables (a `Tablebase` or a directory), or none.
    #[pyo3(signature = (tablebase))]
    fn set_tablebase(&self, py: Python<'_>, tablebase: &Bound<'_, PyAny>) -> PyResult<()> {
        let tables = if tablebase.is_none() {
            None
        } else {
            Some(tablebase_arg(py, tablebase)?)
        };
        self.with_engine(|e| e.set_tablebase(tables));
        Ok(())
    }

    /// The largest seed count the engine's tables cover (0 without tables).
    #[getter]
    fn tablebase_seeds(&self) -> u8 {
        self.with_engine(|e| e.tablebase_seeds())
    }
}

/// A level's profile: `depth` (None: unlimited), default `movetime`
/// (seconds), softmax `temperature` (centi-seeds; 0 plays the best move),
/// the percent chances that a move is noticed (`notice`) and read to the
/// level's depth (`read`), and the opening book's `book_temperature`.
#[pyfunction]
pub fn level_profile<'py>(py: Python<'py>, level: u8) -> PyResult<Bound<'py, PyDict>> {
    if !(Level::MIN.get()..=Level::MAX.get()).contains(&level) {
        return Err(errors::engine(
            "bad_level",
            format!(
                "level must be from {} to {}, found {level}",
                Level::MIN.get(),
                Level::MAX.get()
            ),
        ));
    }
    let p = levels::profile(Level::new(level));
    let d = PyDict::new(py);
    d.set_item("depth", p.depth)?;
    d.set_item("movetime", p.movetime.as_secs_f64())?;
    d.set_item("temperature", p.temperature)?;
    d.set_item("notice", p.notice)?;
    d.set_item("read", p.read)?;
    d.set_item("book_temperature", p.book_temperature)?;
    Ok(d)
}

fn tablebase_arg(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Arc<Tablebase>> {
    if let Ok(t) = obj.cast::<PyTablebase>() {
        return Ok(t.get().tables.clone());
    }
    let dir: PathBuf = obj.extract()?;
    open_dir(py, dir)
}

fn open_dir(py: Python<'_>, dir: PathBuf) -> PyResult<Arc<Tablebase>> {
    let tb = py
        .detach(|| Tablebase::open(&dir))
        .map_err(|e| errors::tablebase(&e))?;
    if tb.max_seeds().is_none() {
        return Err(errors::tablebase_other(
            "no_tables",
            format!("no tablebase files in {}", dir.display()),
        ));
    }
    Ok(Arc::new(tb))
}

fn result_str(r: TbResult) -> &'static str {
    match r {
        TbResult::Win => "win",
        TbResult::Draw => "draw",
        TbResult::Loss => "loss",
        TbResult::WinOrDraw => "win_or_draw",
        TbResult::DrawOrLoss => "draw_or_loss",
        TbResult::Unresolved => "unresolved",
    }
}

/// A table entry for a position, from the side to move: bounds on the
/// seeds of the board the mover ends up with, valid while no board since
/// the last capture has occurred twice (R11).
#[pyclass(name = "TablebaseEntry", module = "oware", frozen, get_all)]
pub struct PyTbEntry {
    /// Seeds on the board.
    pub seeds: u8,
    /// Seeds of the board the mover can force.
    pub lower: u8,
    /// Seeds of the board the opponent can hold the mover to.
    pub upper: u8,
    /// True when the bounds meet.
    pub exact: bool,
    /// The value if exact, else the own-row split clamped to the bounds.
    pub estimate: u8,
    /// `"win"`, `"draw"`, `"loss"`, `"win_or_draw"`, `"draw_or_loss"` or
    /// `"unresolved"`, with the stores counted.
    pub result: &'static str,
    /// The mover's final total: store plus the estimate.
    pub final_total: u8,
}

#[pymethods]
impl PyTbEntry {
    fn __repr__(&self) -> String {
        format!(
            "TablebaseEntry(seeds={}, lower={}, upper={}, result='{}')",
            self.seeds, self.lower, self.upper, self.result
        )
    }
}

/// Endgame tables: the value of every position with up to `max_seeds`
/// seeds on the board, built by retrograde analysis or opened from files.
#[pyclass(name = "Tablebase", module = "oware", frozen)]
pub struct PyTablebase {
    tables: Arc<Tablebase>,
}

#[pymethods]
impl PyTablebase {
    /// Builds the tables for 0..=`max_seeds` seeds (all cores; the GIL is
    /// released). With `directory`, writes the files there (keeping valid
    /// ones already present) and opens them memory-mapped; otherwise keeps
    /// them in memory. 16 seeds take about 10 s and 90 MB.
    #[staticmethod]
    #[pyo3(signature = (max_seeds, directory=None))]
    fn build(py: Python<'_>, max_seeds: usize, directory: Option<PathBuf>) -> PyResult<Self> {
        let tables = match directory {
            None => py
                .detach(|| Tablebase::build_in_memory(max_seeds))
                .map_err(|e| errors::tablebase(&e))?,
            Some(dir) => {
                py.detach(|| {
                    oware_tablebase::build_to_dir(&dir, max_seeds, &|_| {}, &mut |_, _| {})
                })
                .map_err(|e| errors::tablebase(&e))?;
                return Ok(PyTablebase {
                    tables: open_dir(py, dir)?,
                });
            }
        };
        Ok(PyTablebase {
            tables: Arc::new(tables),
        })
    }

    /// Opens the table files in `directory` (memory-mapped, each checked).
    #[staticmethod]
    fn open(py: Python<'_>, directory: PathBuf) -> PyResult<Self> {
        Ok(PyTablebase {
            tables: open_dir(py, directory)?,
        })
    }

    /// The largest seed count covered.
    #[getter]
    fn max_seeds(&self) -> usize {
        self.tables.max_seeds().unwrap_or(0)
    }

    fn __repr__(&self) -> String {
        format!("Tablebase(max_seeds={})", self.max_seeds())
    }

    /// The entry of a position, or `None` when it has more seeds on the
    /// board than the tables cover.
    fn probe(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<PyTbEntry>> {
        let pos = position_arg(Some(position))?;
        Ok(self.tables.probe(&pos).map(|v| PyTbEntry {
            seeds: v.seeds(),
            lower: v.lower(),
            upper: v.upper(),
            exact: v.is_exact(),
            estimate: v.estimate(),
            result: result_str(v.result(&pos)),
            final_total: v.final_total(&pos),
        }))
    }

    /// Every legal move with its value: a list of dicts with `move`,
    /// `captured`, `lower` and `upper` (bounds on the mover's share of the
    /// board's seeds, the capture included); `None` when not covered.
    fn move_values<'py>(
        &self,
        py: Python<'py>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Vec<Bound<'py, PyDict>>>> {
        let pos = position_arg(Some(position))?;
        let Some(values) = self.tables.move_values(&pos) else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(values.len());
        for v in values {
            let d = PyDict::new(py);
            d.set_item("move", v.mv.letter().to_string())?;
            d.set_item("captured", v.captured)?;
            d.set_item("lower", v.lower)?;
            d.set_item("upper", v.upper)?;
            out.push(d);
        }
        Ok(Some(out))
    }

    /// The moves that keep the position's value; `None` when not covered.
    fn best_moves(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<Vec<String>>> {
        let pos = position_arg(Some(position))?;
        Ok(self.tables.best_moves(&pos).map(|v| pv_letters(&v)))
    }
}
