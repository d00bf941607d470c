// Package proc reads what /proc says of a process: the programs of the
// foreground process group of its terminal, which the daemon checks
// before it types into a pane, and its state, by which a client tells a
// daemon stopped with kill -STOP from one that is stuck. It imports
// nothing of codeman's; where there is no /proc it knows nothing.
package proc
