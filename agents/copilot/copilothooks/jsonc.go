package copilothooks

// stripJSONC blanks out the comments (// and /* */) and trailing commas
// of a JSON-with-comments document, which Copilot's settings may be, so
// that encoding/json reads it; line and column of what is left stay.
func stripJSONC(data []byte) []byte {
	out := []byte(string(data))
	inString, escaped := false, false
	for i := 0; i < len(out); i++ {
		ch := out[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case ch == '\\':
				escaped = true
			case ch == '"':
				inString = false
			}
		case ch == '"':
			inString = true
		case ch == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case ch == '/' && i+1 < len(out) && out[i+1] == '*':
			out[i], out[i+1] = ' ', ' '
			for i += 2; i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/'); i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case ch == ',':
			if closesNext(out[i+1:]) {
				out[i] = ' '
			}
		}
	}
	return out
}

// closesNext reports whether the next thing in b, past white space and
// comments, closes an object or array.
func closesNext(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
		case '/':
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
				continue
			}
			if i+1 < len(b) && b[i+1] == '*' {
				for i += 2; i+1 < len(b) && !(b[i] == '*' && b[i+1] == '/'); i++ {
				}
				i++
				continue
			}
			return false
		case '}', ']':
			return true
		default:
			return false
		}
	}
	return false
}
