package screen

import "context"

// QueryOnce runs one -Q through ExecRunner, without the retries of a
// lost reply, so that tests see every collision.
func QueryOnce(ctx context.Context, w Window, cmd ...string) (string, error) {
	return queryOnce(ctx, ExecRunner{}, w, cmd...)
}
