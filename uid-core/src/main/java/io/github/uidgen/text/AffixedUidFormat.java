package io.github.uidgen.text;

/**
 * Another form with a fixed prefix and suffix around it ({@code ORD_4fR9x2...}), both checked on parse, so that an ID
 * of one kind is not taken for another's.
 */
public final class AffixedUidFormat implements UidFormat {

	private final String prefix;

	private final UidFormat form;

	private final String suffix;

	private final String name;

	/**
	 * Creates the form.
	 * @param prefix the text before the ID, may be empty
	 * @param form the form of the ID between them
	 * @param suffix the text after the ID, may be empty
	 */
	public AffixedUidFormat(String prefix, UidFormat form, String suffix) {
		this.prefix = (prefix != null) ? prefix : "";
		this.form = form;
		this.suffix = (suffix != null) ? suffix : "";
		this.name = ((this.prefix.isEmpty()) ? "" : "'" + this.prefix + "' + ") + form.name()
				+ ((this.suffix.isEmpty()) ? "" : " + '" + this.suffix + "'");
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public boolean isKeyed() {
		return this.form.isKeyed();
	}

	/**
	 * Returns the form between the prefix and the suffix.
	 * @return the form
	 */
	public UidFormat form() {
		return this.form;
	}

	/**
	 * Returns the text before the ID.
	 * @return the prefix, may be empty
	 */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * Returns the text after the ID.
	 * @return the suffix, may be empty
	 */
	public String suffix() {
		return this.suffix;
	}

	@Override
	public String format(long uid) {
		return this.prefix + this.form.format(uid) + this.suffix;
	}

	@Override
	public long parse(CharSequence text) {
		String value = text.toString();
		if (value.isEmpty()) {
			throw new UidTextException(this.name, text, "the text is empty");
		}
		if (!value.startsWith(this.prefix)) {
			throw new UidTextException(this.name, text, "it does not start with '" + this.prefix + "'");
		}
		if (value.length() < this.prefix.length() + this.suffix.length() || !value.endsWith(this.suffix)) {
			throw new UidTextException(this.name, text, "it does not end with '" + this.suffix + "'");
		}
		CharSequence inner = value.substring(this.prefix.length(), value.length() - this.suffix.length());
		try {
			return this.form.parse(inner);
		}
		catch (UidTextException ex) {
			throw new UidTextException(this.name, text, "between '" + this.prefix + "' and '" + this.suffix + "': "
					+ ex.getReason());
		}
	}

}
