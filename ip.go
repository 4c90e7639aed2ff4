package canon

// The WHATWG URL Standard's IP address parsers and serializers ("IPv4
// parser", "IPv6 parser", "host serializer"), for the host of a URL read
// with ParseWHATWG. They work on the host as bytes and append to dst, so
// that a host written by them costs no allocation of its own.

// whatwgEndsInNumber is the standard's "ends in a number checker": the
// last label of h (less one empty final label) is all ASCII digits, or is
// an IPv4 number ("0x" and hex digits). h is ASCII.
func whatwgEndsInNumber[T string | []byte](h T) bool {
	if len(h) > 0 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
		if len(h) == 0 {
			return false
		}
	}
	last := h
	for k := len(h) - 1; k >= 0; k-- {
		if h[k] == '.' {
			last = h[k+1:]
			break
		}
	}
	if len(last) == 0 {
		return false
	}
	digits := true
	for k := 0; k < len(last); k++ {
		if last[k] < '0' || last[k] > '9' {
			digits = false
			break
		}
	}
	if digits {
		return true
	}
	_, ok := ipv4Number([]byte(last)) // (no allocation: the slice does not escape)
	return ok
}

// ipv4Number is the standard's "IPv4 number parser": "0x" or "0X" starts
// hex, a leading "0" octal, otherwise decimal; an empty number after the
// prefix is 0. ok is false for a part that is not a number or exceeds
// 2^32 (the caller needs no larger value).
func ipv4Number(p []byte) (uint64, bool) {
	if len(p) == 0 {
		return 0, false
	}
	base := uint64(10)
	switch {
	case len(p) >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'):
		p, base = p[2:], 16
	case len(p) >= 2 && p[0] == '0':
		p, base = p[1:], 8
	}
	var v uint64
	for _, c := range p {
		var d uint64
		switch {
		case c >= '0' && c <= '9':
			d = uint64(c - '0')
		case base == 16 && (c|0x20) >= 'a' && (c|0x20) <= 'f':
			d = uint64(c|0x20-'a') + 10
		default:
			return 0, false
		}
		if d >= base {
			return 0, false
		}
		v = v*base + d
		if v > 1<<32 {
			v = 1<<32 + 1 // too large; keep reading to validate the digits
		}
	}
	return v, true
}

// appendIPv4 is the standard's "IPv4 parser" and serializer: h, whose
// last label is a number, must be one to four numbers separated by dots
// (an empty last part is dropped), each below 256 but the last, which
// fills the remaining bytes. It appends the dotted-decimal address.
func appendIPv4(dst, h []byte) ([]byte, bool) {
	if len(h) > 0 && h[len(h)-1] == '.' {
		h = h[:len(h)-1]
	}
	var parts [4]uint64
	n := 0
	for start := 0; start <= len(h); {
		end := start
		for end < len(h) && h[end] != '.' {
			end++
		}
		if n == 4 {
			return dst, false
		}
		v, ok := ipv4Number(h[start:end])
		if !ok {
			return dst, false
		}
		parts[n] = v
		n++
		start = end + 1
	}
	for k := 0; k < n-1; k++ {
		if parts[k] > 255 {
			return dst, false
		}
	}
	if parts[n-1] >= 1<<(8*(5-n)) {
		return dst, false
	}
	addr := parts[n-1]
	for k := 0; k < n-1; k++ {
		addr += parts[k] << (8 * (3 - k))
	}
	return appendIPv4Dotted(dst, uint32(addr)), true
}

// appendIPv4Dotted appends v as four decimal numbers joined by dots.
func appendIPv4Dotted(dst []byte, v uint32) []byte {
	for k := 3; k >= 0; k-- {
		dst = appendDecimal(dst, int(v>>(8*k)&0xFF))
		if k > 0 {
			dst = append(dst, '.')
		}
	}
	return dst
}

// appendDecimal appends v, 0 to 255, in decimal. (Not recursive, so that
// dst can stay on the caller's stack.)
func appendDecimal(dst []byte, v int) []byte {
	if v >= 100 {
		dst = append(dst, byte('0'+v/100))
	}
	if v >= 10 {
		dst = append(dst, byte('0'+v/10%10))
	}
	return append(dst, byte('0'+v%10))
}

// appendIPv6 is the standard's "IPv6 parser" over in, the text between
// "[" and "]", and its serializer: lowercase hex pieces without leading
// zeros, the first longest run of two or more zero pieces written "::".
func appendIPv6(dst, in []byte) ([]byte, bool) {
	addr, ok := parseIPv6(in)
	if !ok {
		return dst, false
	}
	return appendIPv6Serialized(dst, &addr), true
}

// parseIPv6 is the standard's "IPv6 parser" over in, the text between
// "[" and "]": eight 16-bit pieces, "::" for a run of zero pieces, and
// an IPv4 address in dotted decimal for the last two.
func parseIPv6(in []byte) (addr [8]uint16, ok bool) {
	piece, compress := 0, -1
	p := 0
	if len(in) > 0 && in[0] == ':' {
		if len(in) < 2 || in[1] != ':' {
			return addr, false
		}
		p = 2
		piece++
		compress = piece
	}
	for p < len(in) {
		if piece == 8 {
			return addr, false
		}
		if in[p] == ':' {
			if compress >= 0 {
				return addr, false
			}
			p++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && p < len(in) && isHex(in[p]) {
			value = value*16 + int(unhex(in[p]))
			p++
			length++
		}
		if p < len(in) && in[p] == '.' {
			// An IPv4 address in the last two pieces.
			if length == 0 {
				return addr, false
			}
			if piece, ok = parseIPv6Dotted(in, p-length, piece, &addr); !ok {
				return addr, false
			}
			break
		}
		if p < len(in) && in[p] == ':' {
			p++
			if p == len(in) {
				return addr, false
			}
		} else if p < len(in) {
			return addr, false
		}
		addr[piece] = uint16(value)
		piece++
	}
	if compress >= 0 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			addr[piece], addr[compress+swaps-1] = addr[compress+swaps-1], addr[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return addr, false
	}
	return addr, true
}

// parseIPv6Dotted is the IPv6 parser's IPv4 part (the standard's "If c
// is U+002E (.)" steps; RFC 4291 §2.2, form 3): in[p:], the rest of the
// text, must be four decimal numbers of at most 255 without leading
// zeros, joined by dots, which fill the pieces addr[piece] and
// addr[piece+1]. It returns the piece after them. An address with an
// IPv4 part is rare: the parser's loop over the hex pieces leaves it to
// this function.
func parseIPv6Dotted(in []byte, p, piece int, addr *[8]uint16) (int, bool) {
	if piece > 6 {
		return piece, false
	}
	seen := 0
	for p < len(in) {
		v := -1
		if seen > 0 {
			if in[p] == '.' && seen < 4 {
				p++
			} else {
				return piece, false
			}
		}
		if p >= len(in) || in[p] < '0' || in[p] > '9' {
			return piece, false
		}
		for p < len(in) && in[p] >= '0' && in[p] <= '9' {
			d := int(in[p] - '0')
			switch {
			case v == -1:
				v = d
			case v == 0:
				return piece, false
			default:
				v = v*10 + d
			}
			if v > 255 {
				return piece, false
			}
			p++
		}
		addr[piece] = addr[piece]*0x100 + uint16(v)
		seen++
		if seen == 2 || seen == 4 {
			piece++
		}
	}
	return piece, seen == 4
}

// appendIPv6Serialized writes addr as the standard's IPv6 serializer does.
func appendIPv6Serialized(dst []byte, addr *[8]uint16) []byte {
	// The first longest run of two or more zero pieces.
	best, bestLen := -1, 1
	for k := 0; k < 8; {
		if addr[k] != 0 {
			k++
			continue
		}
		e := k
		for e < 8 && addr[e] == 0 {
			e++
		}
		if e-k > bestLen {
			best, bestLen = k, e-k
		}
		k = e
	}
	for k := 0; k < 8; k++ {
		if k == best {
			if k == 0 {
				dst = append(dst, ':')
			}
			dst = append(dst, ':')
			k += bestLen - 1
			continue
		}
		dst = appendHex16(dst, addr[k])
		if k < 7 {
			dst = append(dst, ':')
		}
	}
	return dst
}

func appendHex16(dst []byte, v uint16) []byte {
	started := false
	for shift := 12; shift >= 0; shift -= 4 {
		d := v >> shift & 15
		if d != 0 || started || shift == 0 {
			dst = append(dst, lowerHex[d])
			started = true
		}
	}
	return dst
}

// appendSURTIPv4 appends the dotted-decimal IPv4 address that the
// Internet Archive's surt library reads the domain d as (ASCII,
// lowercase), and reports whether it reads one; a host it does not read
// as an address is a name to it, whatever the WHATWG URL Standard reads.
// Its GoogleURLCanonicalizer, once the host's dots are trimmed (here:
// every empty label removed), reads a host of ASCII digits alone as a
// decimal number masked to 32 bits ("1113982867" is 66.102.7.147, and
// "0123" is 0.0.0.123: no octal), and a host that matches its
// DECIMAL_IP or OCTAL_IP pattern (one to four dot-separated parts of
// digits, the first not starting with "0", or all of octal digits, the
// first starting with "0") as the C library's inet_aton reads it: each
// part decimal, or octal after a leading "0", every part but the last
// below 256 and the last filling the bytes that are left; where inet_aton
// fails the host stays a name. A hex part ("0x7f"), a letter or a fifth
// part makes a name.
func appendSURTIPv4[T string | []byte](dst []byte, d T) ([]byte, bool) {
	// The labels that are not empty: digits alone, at most four of them
	// unless there is one (a number of any length).
	labels := 0
	for k := 0; k < len(d); k++ {
		switch c := d[k]; {
		case c == '.':
		case c < '0' || c > '9':
			return dst, false
		case k == 0 || d[k-1] == '.':
			labels++
		}
	}
	if labels == 0 {
		return dst, false
	}
	if labels == 1 {
		// Digits alone: int(host) & 0xffffffff.
		var v uint32
		for k := 0; k < len(d); k++ {
			if d[k] != '.' {
				v = v*10 + uint32(d[k]-'0')
			}
		}
		return appendIPv4Dotted(dst, v), true
	}
	if labels > 4 {
		return dst, false
	}
	var parts [4]uint64
	n, octal := 0, false
	for k := 0; k < len(d); {
		if d[k] == '.' {
			k++
			continue
		}
		end := k
		for end < len(d) && d[end] != '.' {
			end++
		}
		if n == 0 {
			octal = d[k] == '0' // OCTAL_IP: every part of octal digits
		}
		base := uint64(10)
		if d[k] == '0' {
			base = 8 // inet_aton: a leading "0" is octal
		}
		var v uint64
		for x := k; x < end; x++ {
			c := uint64(d[x] - '0')
			if (octal || base == 8) && c > 7 {
				return dst, false
			}
			if v = v*base + c; v > 1<<32 {
				return dst, false // (inet_aton refuses a part above 32 bits)
			}
		}
		parts[n] = v
		n++
		k = end
	}
	for k := 0; k < n-1; k++ {
		if parts[k] > 255 {
			return dst, false
		}
	}
	if parts[n-1] >= 1<<(8*(5-n)) {
		return dst, false
	}
	addr := parts[n-1]
	for k := 0; k < n-1; k++ {
		addr += parts[k] << (8 * (3 - k))
	}
	return appendIPv4Dotted(dst, uint32(addr)), true
}

// keepsDotsAfter reports whether trimDomainDots writes ".." after the
// domain d, its dots trimmed: the standard reads d as an IPv4 address
// (it ends in a number) and would read the key's host so. Under
// ReadAsSURT (surt) only where the standard rejects d ("a.1"): the
// library reads a host such as "0x7f" as a name, and so does ReadAsSURT,
// whatever the standard reads; a host it reads as an address never
// comes here (whatwgHost writes the address).
func keepsDotsAfter[T string | []byte](d T, surt bool) bool {
	if !whatwgEndsInNumber(d) {
		return false
	}
	if !surt {
		return true
	}
	var buf [16]byte
	_, ok := appendIPv4(buf[:0], []byte(d)) // (a host that ends in a number and dots: rare)
	return !ok
}
