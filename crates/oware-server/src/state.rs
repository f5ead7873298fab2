//! The web framework's state: a few small shared parts, and each handler
//! extracts only the part it uses (`State<Arc<Hub>>`,
//! `State<Arc<Limiter>>`, `State<Arc<Config>>`).

use std::sync::Arc;

use axum::extract::FromRef;

use crate::config::Config;
use crate::hub::Hub;
use crate::limits::Limiter;

/// What the routes share.
#[derive(Clone)]
pub struct AppState {
    /// The live games and the store.
    pub hub: Arc<Hub>,
    /// The per-client limits.
    pub limits: Arc<Limiter>,
    /// The configuration.
    pub config: Arc<Config>,
}

impl FromRef<AppState> for Arc<Hub> {
    fn from_ref(state: &AppState) -> Arc<Hub> {
        state.hub.clone()
    }
}

impl FromRef<AppState> for Arc<Limiter> {
    fn from_ref(state: &AppState) -> Arc<Limiter> {
        state.limits.clone()
    }
}

impl FromRef<AppState> for Arc<Config> {
    fn from_ref(state: &AppState) -> Arc<Config> {
        state.config.clone()
    }
}
