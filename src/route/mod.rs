//! Route selection.
