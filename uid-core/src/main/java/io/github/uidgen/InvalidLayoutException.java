package io.github.uidgen;

import java.util.List;

/**
 * Thrown when a {@link UidLayout} is refused: bits that do not fit, an epoch in the future, or a range that has
 * already run out.
 */
public class InvalidLayoutException extends UidException {

	private static final long serialVersionUID = 1L;

	private final List<LayoutField> fields;

	private final String value;

	private final String fix;

	public InvalidLayoutException(List<LayoutField> fields, String value, String problem, String fix) {
		super(problem + " (" + value + "); " + fix);
		this.fields = List.copyOf(fields);
		this.value = value;
		this.fix = fix;
	}

	/**
	 * Returns the settings at fault.
	 * @return one or more fields
	 */
	public List<LayoutField> getFields() {
		return this.fields;
	}

	/**
	 * Returns the refused value, as written in the message.
	 * @return the value
	 */
	public String getValue() {
		return this.value;
	}

	/**
	 * Returns what to change.
	 * @return the fix
	 */
	public String getFix() {
		return this.fix;
	}

}
