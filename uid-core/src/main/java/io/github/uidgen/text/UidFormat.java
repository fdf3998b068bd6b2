package io.github.uidgen.text;

/**
 * One text form of IDs: turns an ID into text and the text back into that ID ({@code parse(format(id)) == id} for
 * every ID of the layout). Implementations are immutable and safe to share between threads.
 */
public interface UidFormat {

	/**
	 * Writes an ID as text.
	 * @param uid the ID, from 0 to the largest ID of the layout the form was made for
	 * @return the text
	 * @throws IllegalArgumentException when the ID lies outside that range
	 */
	String format(long uid);

	/**
	 * Reads an ID back from text of this form.
	 * @param text the text
	 * @return the ID
	 * @throws UidTextException saying which form and what is wrong when the text is not of this form (a keyed form
	 * says only that the text is not a valid ID of this service, whatever is wrong)
	 */
	long parse(CharSequence text);

	/**
	 * Returns the name of the form as error messages and configuration write it, for example {@code radix62}.
	 * @return the name
	 */
	String name();

	/**
	 * Tells whether reading the form's texts needs a secret key, so that whoever may read them with this service
	 * learns what the key hides (the ID, its time, its worker).
	 * @return {@code true} for the opaque form, alone or with text around it
	 */
	default boolean isKeyed() {
		return false;
	}

}
