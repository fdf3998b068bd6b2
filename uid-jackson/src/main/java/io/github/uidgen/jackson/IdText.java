package io.github.uidgen.jackson;

import java.util.Locale;

import io.github.uidgen.text.AffixedUidFormat;
import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import tools.jackson.databind.BeanProperty;

/**
 * Finds the text form a {@link UidAsString} property asks for among the application's forms.
 */
final class IdText {

	private IdText() {
	}

	/**
	 * Returns the form of a property.
	 * @param formats the application's forms
	 * @param property the property, or {@code null} for a value that is no property
	 * @return the form, with the annotation's prefix and suffix
	 * @throws IllegalArgumentException when the form is not available, saying why
	 */
	static UidFormat of(UidFormats formats, BeanProperty property) {
		UidAsString annotation = (property != null) ? property.getAnnotation(UidAsString.class) : null;
		if (annotation == null) {
			return formats.defaultForm();
		}
		UidFormat form = UidFormats.tweaked((annotation.value() == UidAsString.Form.DEFAULT) ? formats.defaultForm()
				: formats.form(annotation.value().name().toLowerCase(Locale.ROOT)), annotation.tweak());
		if (annotation.prefix().isEmpty() && annotation.suffix().isEmpty()) {
			return form;
		}
		return new AffixedUidFormat(annotation.prefix(), form, annotation.suffix());
	}

	/** Whether the form reads plain JSON numbers: only the decimal form, whose text is the number. */
	static boolean readsNumbers(UidFormat form) {
		return UidFormats.DECIMAL.equals(form.name());
	}

}
