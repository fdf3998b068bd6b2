package io.github.uidgen.text;

import io.github.uidgen.UidException;

/**
 * Thrown when a text is not an ID of the form asked for: names the form, repeats the text (cut short) and says what
 * is wrong, so that a web layer can answer 400 with the reason.
 */
public class UidTextException extends UidException {

	private static final long serialVersionUID = 1L;

	private static final int MAX_ECHO = 40;

	private final String form;

	private final String reason;

	/**
	 * Creates the exception.
	 * @param form the name of the form, for example {@code radix62}
	 * @param text the text refused
	 * @param reason what is wrong with it
	 */
	public UidTextException(String form, CharSequence text, String reason) {
		super("'" + echo(text) + "' is not " + article(form) + " " + form + " ID: " + reason);
		this.form = form;
		this.reason = reason;
	}

	/**
	 * Returns the name of the form the text was read as.
	 * @return the form
	 */
	public String getForm() {
		return this.form;
	}

	/**
	 * Returns what is wrong with the text, without the text itself.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	/** "an opaque ID", "a radix62 ID": the names of forms are written as words are spoken. */
	private static String article(String form) {
		return (!form.isEmpty() && "aeiou".indexOf(form.charAt(0)) >= 0) ? "an" : "a";
	}

	/**
	 * Says how long a text is.
	 * @param length its length
	 * @return for example {@code "it is 1 character long"}
	 */
	static String length(int length) {
		return "it is " + length + ((length == 1) ? " character" : " characters") + " long";
	}

	/** Repeats caller input, cut short so a huge text does not make a huge message. */
	static String echo(CharSequence text) {
		String value = String.valueOf(text);
		return (value.length() <= MAX_ECHO) ? value : value.substring(0, MAX_ECHO) + "...";
	}

}
