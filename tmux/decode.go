package tmux

import "bytes"

// AppendDecoded appends the bytes that the data of an %output line stands
// for to dst and returns the extended slice.
//
// tmux writes bytes below 0x20 and the backslash itself as a three-digit
// octal escape ("\033", "\134", control.c control_append_data) and every
// other byte raw, UTF-8 included. A UTF-8 sequence may therefore be split
// across two lines; the bytes are passed on untouched and never validated.
// "\\" is accepted too. A backslash that starts no escape is kept as is.
func AppendDecoded(dst, src []byte) []byte {
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\\')
		if i < 0 {
			return append(dst, src...)
		}
		dst = append(dst, src[:i]...)
		src = src[i:]
		switch {
		case len(src) >= 4 && isOctal(src[1]) && isOctal(src[2]) && isOctal(src[3]) && src[1] <= '3':
			dst = append(dst, (src[1]-'0')<<6|(src[2]-'0')<<3|(src[3]-'0'))
			src = src[4:]
		case len(src) >= 2 && src[1] == '\\':
			dst = append(dst, '\\')
			src = src[2:]
		default:
			dst = append(dst, '\\')
			src = src[1:]
		}
	}
	return dst
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
