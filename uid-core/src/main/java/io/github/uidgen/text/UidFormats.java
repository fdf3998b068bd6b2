package io.github.uidgen.text;

import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.github.uidgen.UidLayout;

/**
 * The text forms of one generator's IDs, by name ({@code decimal}, {@code radix62}, {@code radix36},
 * {@code readable}, {@code opaque}), and the one used where none is named. Built once from the generator's layout and
 * the application's settings; where a form is not available (readable without a layout, opaque without a key),
 * asking for it says why.
 */
public final class UidFormats {

	/** Decimal digits, as {@code Long.toString} writes them. */
	public static final String DECIMAL = "decimal";

	/** Radix 62, {@code 0-9A-Za-z}. */
	public static final String RADIX62 = "radix62";

	/** Radix 36, {@code 0-9a-z}, read in either case. */
	public static final String RADIX36 = "radix36";

	/** Time, worker and sequence spelled out. */
	public static final String READABLE = "readable";

	/** FF1 over the ID's bits under a secret key. */
	public static final String OPAQUE = "opaque";

	private final Map<String, UidFormat> forms;

	private final Map<String, String> unavailable;

	private final UidFormat defaultForm;

	private UidFormats(Map<String, UidFormat> forms, Map<String, String> unavailable, UidFormat defaultForm) {
		this.forms = forms;
		this.unavailable = unavailable;
		this.defaultForm = defaultForm;
	}

	/**
	 * Starts the forms of a layout's IDs.
	 * @param layout the layout, or {@code null} for IDs without one (the segment generator's plain numbers)
	 * @return a builder
	 */
	public static Builder builder(UidLayout layout) {
		return new Builder(layout);
	}

	/**
	 * Returns the forms that need no settings: decimal (the default), radix 62 and radix 36, of any non-negative long.
	 * @return the forms
	 */
	public static UidFormats standalone() {
		return builder(null).build();
	}

	/**
	 * Returns the form used where none is named, with its prefix and suffix.
	 * @return the default form
	 */
	public UidFormat defaultForm() {
		return this.defaultForm;
	}

	/**
	 * Returns a form by name.
	 * @param name one of {@link #names()}
	 * @return the form
	 * @throws IllegalArgumentException naming the available forms, or saying why this one is not available
	 */
	public UidFormat form(String name) {
		UidFormat form = this.forms.get(name);
		if (form != null) {
			return form;
		}
		String reason = this.unavailable.get(name);
		throw new IllegalArgumentException((reason != null) ? "The " + name + " form is not available: " + reason
				: "There is no text form '" + name + "'; the forms are " + String.join(", ", this.forms.keySet()));
	}

	/**
	 * Returns a form by name, for one use with its own tweak.
	 * @param name one of {@link #names()}
	 * @param tweak the use's tweak, see {@link OpaqueUidFormat#tweaked(String)}; empty for the form as configured
	 * @return the form
	 * @throws IllegalArgumentException as {@link #form(String)}, and for a tweak on a form without a key
	 */
	public UidFormat form(String name, String tweak) {
		return tweaked(form(name), tweak);
	}

	/**
	 * Returns the form of one use of an opaque form, alone or with text around it.
	 * @param form a form
	 * @param tweak the use's tweak; empty for the form as it is
	 * @return the form with that tweak
	 * @throws IllegalArgumentException for a tweak on a form that has no key, where it would change nothing
	 */
	public static UidFormat tweaked(UidFormat form, String tweak) {
		if (tweak == null || tweak.isEmpty()) {
			return form;
		}
		if (form instanceof OpaqueUidFormat opaque) {
			return opaque.tweaked(tweak);
		}
		if (form instanceof AffixedUidFormat affixed && affixed.isKeyed()) {
			return new AffixedUidFormat(affixed.prefix(), tweaked(affixed.form(), tweak), affixed.suffix());
		}
		throw new IllegalArgumentException("A tweak is for the opaque form, and the " + form.name()
				+ " form has no key to take it; leave the tweak out or choose the opaque form");
	}

	/**
	 * Returns the names of the forms available.
	 * @return the names, in a fixed order
	 */
	public Set<String> names() {
		return this.forms.keySet();
	}

	/**
	 * Collects the settings of the forms.
	 */
	public static final class Builder {

		private final UidLayout layout;

		private boolean fixedWidth;

		private ZoneId zone = ZoneOffset.UTC;

		private OpaqueUidFormat opaque;

		private String defaultName = DECIMAL;

		private String prefix = "";

		private String suffix = "";

		private Builder(UidLayout layout) {
			this.layout = layout;
		}

		/**
		 * Sets whether radix texts have the width of the largest ID, so that they sort as the IDs.
		 * @param fixedWidth whether they do
		 * @return this builder
		 */
		public Builder fixedWidth(boolean fixedWidth) {
			this.fixedWidth = fixedWidth;
			return this;
		}

		/**
		 * Sets the zone of the readable form's time.
		 * @param zone the zone; UTC writes no offset
		 * @return this builder
		 */
		public Builder zone(ZoneId zone) {
			this.zone = zone;
			return this;
		}

		/**
		 * Sets the opaque form, which has keys of its own.
		 * @param opaque the form, or {@code null} when no key is configured
		 * @return this builder
		 */
		public Builder opaque(OpaqueUidFormat opaque) {
			this.opaque = opaque;
			return this;
		}

		/**
		 * Sets the form used where none is named, and the text around it.
		 * @param name the name of the form
		 * @param prefix text before the ID, may be empty
		 * @param suffix text after the ID, may be empty
		 * @return this builder
		 */
		public Builder defaultForm(String name, String prefix, String suffix) {
			this.defaultName = name;
			this.prefix = (prefix != null) ? prefix : "";
			this.suffix = (suffix != null) ? suffix : "";
			return this;
		}

		/**
		 * Builds the forms.
		 * @return the forms
		 * @throws IllegalArgumentException when the default form is not available, saying why
		 */
		public UidFormats build() {
			long maxUid = (this.layout != null) ? this.layout.maxUid() : Long.MAX_VALUE;
			Map<String, UidFormat> forms = new LinkedHashMap<>();
			Map<String, String> unavailable = new LinkedHashMap<>();
			forms.put(DECIMAL, RadixUidFormat.decimal(maxUid));
			forms.put(RADIX62, RadixUidFormat.radix62(maxUid, this.fixedWidth));
			forms.put(RADIX36, RadixUidFormat.radix36(maxUid, this.fixedWidth));
			if (this.layout != null) {
				forms.put(READABLE, new ReadableUidFormat(this.layout, this.zone));
			}
			else {
				unavailable.put(READABLE, "these IDs have no layout (time, worker, sequence) to spell out");
			}
			if (this.opaque != null) {
				forms.put(OPAQUE, this.opaque);
			}
			else {
				unavailable.put(OPAQUE, "it needs a key, and there is no default key");
			}
			UidFormats partial = new UidFormats(forms, unavailable, null);
			UidFormat chosen = partial.form(this.defaultName);
			UidFormat defaultForm = (this.prefix.isEmpty() && this.suffix.isEmpty()) ? chosen
					: new AffixedUidFormat(this.prefix, chosen, this.suffix);
			return new UidFormats(Collections.unmodifiableMap(forms),
					unavailable, defaultForm);
		}

	}

}
