package io.github.uidgen.autoconfigure.text;

import java.util.Locale;
import java.util.Set;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.AffixedUidFormat;
import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import org.springframework.format.AnnotationFormatterFactory;
import org.springframework.format.Parser;
import org.springframework.format.Printer;

/**
 * Reads and writes {@code long} and {@code Long} values annotated {@link UidAsString} in the annotation's text form,
 * for Spring's conversion: {@code @PathVariable @UidAsString(Form.OPAQUE) long id} accepts the opaque text. Text that
 * is not of the form fails conversion with a {@code UidTextException} saying why.
 */
final class UidAsStringFormatterFactory implements AnnotationFormatterFactory<UidAsString> {

	private final UidFormats formats;

	UidAsStringFormatterFactory(UidFormats formats) {
		this.formats = formats;
	}

	@Override
	public Set<Class<?>> getFieldTypes() {
		return Set.of(Long.class, Long.TYPE);
	}

	@Override
	public Printer<?> getPrinter(UidAsString annotation, Class<?> fieldType) {
		UidFormat form = form(annotation);
		return (Printer<Long>) (value, locale) -> form.format(value);
	}

	@Override
	public Parser<?> getParser(UidAsString annotation, Class<?> fieldType) {
		UidFormat form = form(annotation);
		return (Parser<Long>) (text, locale) -> form.parse(text);
	}

	private UidFormat form(UidAsString annotation) {
		return formOf(this.formats, annotation);
	}

	/** The form an annotation names, with its prefix and suffix. */
	static UidFormat formOf(UidFormats formats, UidAsString annotation) {
		UidFormat form = UidFormats.tweaked((annotation.value() == UidAsString.Form.DEFAULT) ? formats.defaultForm()
				: formats.form(annotation.value().name().toLowerCase(Locale.ROOT)), annotation.tweak());
		return (annotation.prefix().isEmpty() && annotation.suffix().isEmpty()) ? form
				: new AffixedUidFormat(annotation.prefix(), form, annotation.suffix());
	}

}
