package io.github.uidgen.autoconfigure.text;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a request whose ID parameter is not text of its form with 400 and the reason, as an RFC 9457 problem
 * ({@code application/problem+json}): Spring MVC's own answer to a failed conversion says only that it failed. It
 * runs before Spring MVC's resolvers and touches nothing but failed conversions of parameters annotated
 * {@link UidAsString}. Spring falls back to its number editor once the conversion fails, so the reason is found by
 * reading the text again in the parameter's form.
 */
final class UidTextExceptionResolver implements HandlerExceptionResolver, Ordered {

	private final UidFormats formats;

	UidTextExceptionResolver(UidFormats formats) {
		this.formats = formats;
	}

	@Override
	public ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response, Object handler,
			Exception ex) {
		if (!(ex instanceof MethodArgumentTypeMismatchException mismatch)) {
			return null;
		}
		UidTextException text = reason(mismatch);
		if (text == null) {
			return null;
		}
		String parameter = mismatch.getName();
		String body = "{\"type\":\"about:blank\",\"title\":\"Invalid ID\",\"status\":400,\"detail\":"
				+ json(((parameter != null) ? "Parameter '" + parameter + "': " : "") + text.getMessage())
				+ ",\"instance\":" + json(request.getRequestURI())
				+ ((parameter != null) ? ",\"parameter\":" + json(parameter) : "") + ",\"form\":" + json(text.getForm())
				+ "}";
		try {
			response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
			response.setContentType("application/problem+json");
			response.setCharacterEncoding(StandardCharsets.UTF_8.name());
			response.getWriter().write(body);
			response.flushBuffer();
		}
		catch (IOException writeFailed) {
			return null;
		}
		return new ModelAndView();
	}

	@Override
	public int getOrder() {
		// Before Spring MVC's composite resolver (order 0), whose default answer would drop the reason.
		return -1;
	}

	/** Why the text is not of the parameter's form, or {@code null} when the parameter is not an annotated ID. */
	private UidTextException reason(MethodArgumentTypeMismatchException mismatch) {
		UidAsString annotation = mismatch.getParameter().getParameterAnnotation(UidAsString.class);
		if (annotation == null || !(mismatch.getValue() instanceof String value)) {
			return null;
		}
		try {
			UidAsStringFormatterFactory.formOf(this.formats, annotation).parse(value);
			return null;
		}
		catch (UidTextException ex) {
			return ex;
		}
		catch (IllegalArgumentException ex) {
			return new UidTextException(annotation.value().name().toLowerCase(java.util.Locale.ROOT), value,
					ex.getMessage());
		}
	}

	/** A JSON string: quotes, backslashes and control characters escaped. */
	static String json(String text) {
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
