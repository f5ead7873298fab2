//! The wire protocol (docs/PROTOCOL.md) as types: [`incoming`] is what
//! clients send, parsed once at the socket or route; [`outgoing`] is what
//! the server sends. Nothing else in the server reads or writes JSON by
//! hand.

pub mod incoming;
pub mod outgoing;
pub mod views;

pub use incoming::{ClientIn, MESSAGE_LIMIT};
pub use outgoing::*;
