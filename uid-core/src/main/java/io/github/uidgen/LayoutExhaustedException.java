package io.github.uidgen;

import java.time.Instant;

/**
 * Thrown instead of an ID once the time bits of the layout have run out; an ID past that point would be
 * negative or would repeat an earlier one.
 */
public class LayoutExhaustedException extends UidException {

	private static final long serialVersionUID = 1L;

	private final Instant expiry;

	public LayoutExhaustedException(Instant expiry) {
		super("The ID layout ran out at " + expiry + ": its time bits cannot count further. Issue no more IDs "
				+ "with this layout; move to one with more time bits or a later epoch.");
		this.expiry = expiry;
	}

	/**
	 * Returns the first instant the layout cannot encode.
	 * @return the expiry instant
	 */
	public Instant getExpiry() {
		return this.expiry;
	}

}
