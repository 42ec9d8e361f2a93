//! Digitising printed maps.
