// Package remote lets a person answer a pane from afar, with no port
// opened on the machine. A notification of a need carries buttons; each
// button posts a token to a reply topic that the daemon subscribes to
// (ntfy's JSON stream), and the daemon types the choice the token names
// through the controller's press gate.
//
// A token binds the pane, the need's ID (the dialog's fingerprint), the
// choice and an expiry, signed with HMAC-SHA256 under a key that never
// leaves the state dir (a 0600 file). Anyone who knows the reply topic
// can post to it, so the topic is not trusted: a message counts only when
// its token verifies, has not expired, and has not been used before (Used
// keeps the tokens seen until they expire, on disk, so a daemon restarted
// in between does not take one twice).
package remote
