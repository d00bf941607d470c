// Package archtest holds codeman's architecture as a test: which package
// may import which, that no test rig is linked into a binary, and that the
// package table of docs/ARCHITECTURE.md says what the packages import. It
// has no code of its own; `go test ./internal/rig/archtest` runs the walls.
package archtest
