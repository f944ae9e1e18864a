//! # Vedette UI
//!
//! The `vedette` binary: its command-line interface (this crate's [`cli`]) and the table
//! companion app ([`app`]). Like ripgrep's `core`, it holds the interface and glue; the
//! work is done by `rules`, `calibration` and `vision`.
//!
//! The command line is a library too, so integration tests run it in-process with
//! [`cli::run`] and capture what it prints.

pub mod app;
pub mod args;
pub mod bench;
pub mod camera;
pub mod cli;
pub mod commands;
pub mod hub;
pub mod progress;
pub mod quiet_gpu;
pub mod report;
pub mod serve;
pub mod web;
