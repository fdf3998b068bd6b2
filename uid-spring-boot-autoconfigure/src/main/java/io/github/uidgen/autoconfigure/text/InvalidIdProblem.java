package io.github.uidgen.autoconfigure.text;

import java.util.Locale;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
import org.springframework.core.MethodParameter;
import org.springframework.util.StringUtils;

/**
 * Why a request parameter annotated {@link UidAsString} could not be converted, and the RFC 9457 problem that
 * answers it. The reason is found by reading the text again in the parameter's form, which is the same whichever of
 * Spring's conversions gave up.
 */
final class InvalidIdProblem {

	private InvalidIdProblem() {
	}

	/**
	 * Reads the text again in the parameter's form.
	 * @param formats the application's forms
	 * @param parameter the method parameter whose conversion failed, may be {@code null}
	 * @param value the value that failed
	 * @return why the text is not of the form, or {@code null} when the parameter is not an annotated ID
	 */
	static UidTextException reason(UidFormats formats, MethodParameter parameter, Object value) {
		UidAsString annotation = (parameter != null) ? parameter.getParameterAnnotation(UidAsString.class) : null;
		if (annotation == null) {
			return null;
		}
		// A collection's texts come as several values or as one, separated by commas: name the one that is wrong.
		boolean single = parameter.getParameterType() == long.class || parameter.getParameterType() == Long.class;
		String[] texts = (value instanceof String[] values) ? values : (value instanceof String text)
				? (single ? new String[] { text } : StringUtils.commaDelimitedListToStringArray(text)) : new String[0];
		for (String text : texts) {
			try {
				UidAsStringFormatterFactory.formOf(formats, annotation).parse(text);
			}
			catch (UidTextException ex) {
				return ex;
			}
			catch (IllegalArgumentException ex) {
				return new UidTextException(annotation.value().name().toLowerCase(Locale.ROOT), text, ex.getMessage());
			}
		}
		return null;
	}

	/**
	 * Writes the problem.
	 * @param parameter the parameter's name, or {@code null}
	 * @param reason why its text is not an ID of its form
	 * @param instance the request path
	 * @return {@code application/problem+json} text
	 */
	static String json(String parameter, UidTextException reason, String instance) {
		return "{\"type\":\"about:blank\",\"title\":\"Invalid ID\",\"status\":400,\"detail\":"
				+ string(((parameter != null) ? "Parameter '" + parameter + "': " : "") + reason.getMessage())
				+ ",\"instance\":" + string(instance) + ((parameter != null) ? ",\"parameter\":" + string(parameter) : "")
				+ ",\"form\":" + string(reason.getForm()) + "}";
	}

	/** A JSON string: quotes, backslashes and control characters escaped. */
	static String string(String text) {
		StringBuilder json = new StringBuilder(text.length() + 2).append('"');
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				default -> {
					if (c < 0x20) {
						json.append(String.format("\\u%04x", (int) c));
					}
					else {
						json.append(c);
					}
				}
			}
		}
		return json.append('"').toString();
	}

}
