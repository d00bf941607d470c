// Package fakeserver holds the parts a fake model API on loopback shares,
// whatever its wire format: the HTTP server and its lifecycle, the script
// of replies, the log of requests, and helpers that write server-sent
// events and JSON errors.
//
// A wire format package (internal/rig/fakeapi, internal/rig/fakeopenai)
// defines a Request type that embeds Request and a Reply type, says how the
// two read in a Format, and answers its endpoints with a Backend:
//
//	b, err := fakeserver.Listen(addr, format)
//	if err != nil {
//		return nil, err
//	}
//	s := &Server{Server: b.Server(), b: b}
//	b.Serve(s.routes())
//
// Its Server type embeds the Server that Listen made, so tests script and
// inspect it through the methods here (Handle, HandleFunc, Enqueue,
// SetDefault, Requests, WaitForRequest, URL, Close) and set its Clock,
// while the Backend's methods stay with the format's handlers.
//
// The script answers a request with the first source that has a reply, in
// this order: the error an identical earlier request got (a CLI retrying),
// the Next of the tool call whose result the request carries, the rules in
// the order they were added, the queue (fresh user turns only), and the
// default reply. The title side request gets the format's title reply.
//
// fakeserver is test support: it imports nothing of codeman, and nothing
// but the fake API packages and their tests may import it.
package fakeserver
