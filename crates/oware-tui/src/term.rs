//! The full-screen runtime: the terminal (always restored), the event loop
//! and the engine's worker thread.

use std::io::{self, Stdout};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use oware_engine::{Engine, EngineOptions, SearchResult, StopHandle};
use oware_session::{Analysis, AnalysisCache, AnalysisError};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::{Hide, Show};
use ratatui::crossterm::event::{self, Event};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;

use crate::app::{App, SearchRequest};
use crate::ui;

/// What the engine thread answers: a search's result, or an analysis.
#[derive(Debug)]
pub enum Answer {
    /// A search (the computer's move).
    Search(SearchResult),
    /// An analysis (the hint and the coach).
    Analysis(Result<std::sync::Arc<Analysis>, AnalysisError>),
}

/// The engine on its own thread, one search at a time, so the interface
/// never waits for it.
pub struct Worker {
    requests: Option<Sender<SearchRequest>>,
    results: Receiver<(u64, Answer)>,
    stop: StopHandle,
    handle: Option<JoinHandle<()>>,
}

impl Worker {
    /// Starts the thread.
    pub fn spawn(options: EngineOptions) -> Worker {
        Worker::spawn_with(options, |_| {})
    }

    /// Starts the thread, with `setup` run on its engine first (to give it
    /// a book or tables).
    pub fn spawn_with(
        options: EngineOptions,
        setup: impl FnOnce(&mut Engine) + Send + 'static,
    ) -> Worker {
        let (req_tx, req_rx) = mpsc::channel::<SearchRequest>();
        let (res_tx, res_rx) = mpsc::channel();
        let (stop_tx, stop_rx) = mpsc::channel();
        let handle = thread::Builder::new()
            .name("oware-engine".into())
            .spawn(move || {
                let mut engine = Engine::new(options);
                setup(&mut engine);
                let _ = stop_tx.send(engine.stop_handle());
                let mut analyses = AnalysisCache::new(256);
                for req in req_rx {
                    let answer = match req.analysis {
                        Some(budget) => {
                            let stop = engine.stop_handle();
                            stop.reset();
                            Answer::Analysis(analyses.analyse(
                                &mut engine,
                                &req.game,
                                budget,
                                &stop,
                            ))
                        }
                        None => Answer::Search(engine.search(&req.game, &req.limits, &mut |_| {})),
                    };
                    if res_tx.send((req.id, answer)).is_err() {
                        break;
                    }
                }
            })
            .expect("spawning the engine thread");
        let stop = stop_rx.recv().unwrap_or_default();
        Worker {
            requests: Some(req_tx),
            results: res_rx,
            stop,
            handle: Some(handle),
        }
    }

    /// Queues a search.
    pub fn submit(&self, req: SearchRequest) {
        if let Some(tx) = &self.requests {
            let _ = tx.send(req);
        }
    }

    /// Stops the running search (its result still arrives, and is ignored).
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// A finished search or analysis, if any.
    pub fn try_recv(&self) -> Option<(u64, Answer)> {
        self.results.try_recv().ok()
    }

    /// False once the thread has ended (it only ends early if the engine panicked).
    pub fn is_alive(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Stops any search and waits (briefly) for the thread to end.
    pub fn shutdown(mut self) {
        self.requests = None;
        let deadline = Instant::now() + Duration::from_secs(3);
        if let Some(handle) = self.handle.take() {
            // A stop can land just before a search resets its flag: repeat it.
            while !handle.is_finished() && Instant::now() < deadline {
                self.stop.stop();
                thread::sleep(Duration::from_millis(5));
            }
            if handle.is_finished() {
                let _ = handle.join();
            }
        }
    }
}

/// Puts the terminal back as it was: cooked mode, main screen, cursor shown.
/// Safe to call more than once.
pub fn restore_terminal() {
    let _ = disable_raw_mode();
    let _ = execute!(io::stdout(), LeaveAlternateScreen, Show);
}

/// Restores the terminal before the default panic message is printed.
pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        previous(info);
    }));
}

struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// Runs the full-screen game until the player quits.
pub fn run(app: &mut App) -> io::Result<()> {
    install_panic_hook();
    enable_raw_mode()?;
    let _guard = Guard;
    execute!(io::stdout(), EnterAlternateScreen, Hide)?;
    let mut terminal: Terminal<CrosstermBackend<Stdout>> =
        Terminal::new(CrosstermBackend::new(io::stdout()))?;
    terminal.clear()?;
    let (book, tables) = (app.settings.book.clone(), app.settings.tables.clone());
    let network = app.settings.network.clone();
    let worker = Worker::spawn_with(
        EngineOptions {
            hash_mb: 32,
            ..EngineOptions::default()
        },
        move |engine| {
            engine.set_book(book);
            engine.set_network(network);
            engine.set_tablebase_loading(tables);
        },
    );
    let result = event_loop(&mut terminal, app, &worker);
    worker.shutdown();
    drop(terminal);
    result
}

/// Set, this environment variable makes `!` panic: how the end-to-end test
/// checks that a panic restores the terminal. Only builds with debug
/// assertions (debug and the test profile `ci`) read it; a release build
/// has no such hook.
pub const PANIC_KEY_ENV: &str = "OWARE_TEST_PANIC_KEY";

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    app: &mut App,
    worker: &Worker,
) -> io::Result<()> {
    let panic_key = cfg!(debug_assertions) && std::env::var_os(PANIC_KEY_ENV).is_some();
    let mut last = Instant::now();
    loop {
        if app.take_stop() {
            worker.stop();
        }
        for req in app.take_requests() {
            worker.submit(req);
        }
        if app.quit {
            return Ok(());
        }
        terminal.draw(|f| ui::draw(f, app))?;
        if event::poll(Duration::from_millis(30))? {
            match event::read()? {
                Event::Key(key) if panic_key && key.code == event::KeyCode::Char('!') => {
                    panic!("panic requested with {PANIC_KEY_ENV}")
                }
                Event::Key(key) => app.on_key(key),
                Event::Resize(..) => terminal.autoresize()?,
                _ => {}
            }
        }
        while let Some((id, answer)) = worker.try_recv() {
            match answer {
                Answer::Search(result) => app.on_search_result(id, result),
                Answer::Analysis(result) => app.on_analysis(id, result),
            }
        }
        if !worker.is_alive() {
            // The panic hook has already put the terminal back: save and leave.
            app.request_quit();
            return Err(io::Error::other(
                "the engine stopped unexpectedly; the game was saved",
            ));
        }
        let now = Instant::now();
        app.tick(now - last);
        last = now;
    }
}
