//! The target-independent backend (see the backend issue); nothing here yet.
