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
 * Answers a Spring MVC request whose {@link UidAsString} parameter is not text of its form with 400 and the reason,
 * as an RFC 9457 problem ({@code application/problem+json}): Spring MVC's own answer to a failed conversion says
 * only that it failed. It runs before Spring MVC's resolvers and touches nothing but those parameters.
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
		UidTextException reason = InvalidIdProblem.reason(this.formats, mismatch.getParameter(), mismatch.getValue());
		if (reason == null) {
			return null;
		}
		try {
			response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
			response.setContentType("application/problem+json");
			response.setCharacterEncoding(StandardCharsets.UTF_8.name());
			response.getWriter().write(InvalidIdProblem.json(mismatch.getName(), reason, request.getRequestURI()));
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

}
