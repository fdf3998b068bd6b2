package io.github.uidgen.autoconfigure.text;

import java.nio.charset.StandardCharsets;

import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
import reactor.core.publisher.Mono;

import org.springframework.beans.TypeMismatchException;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.WebExceptionHandler;

/**
 * Answers a WebFlux request whose {@link UidAsString} parameter is not text of its form with 400 and the reason, as
 * an RFC 9457 problem: WebFlux's own answer says only "Type mismatch". It runs before Spring Boot's error handler and
 * passes every other error on.
 */
final class UidTextWebExceptionHandler implements WebExceptionHandler, Ordered {

	private final UidFormats formats;

	UidTextWebExceptionHandler(UidFormats formats) {
		this.formats = formats;
	}

	@Override
	public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
		if (!(ex instanceof ServerWebInputException input) || !(input.getCause() instanceof TypeMismatchException mismatch)
				|| exchange.getResponse().isCommitted()) {
			return Mono.error(ex);
		}
		UidTextException reason = InvalidIdProblem.reason(this.formats, input.getMethodParameter(),
				mismatch.getValue());
		if (reason == null) {
			return Mono.error(ex);
		}
		String parameter = (input.getMethodParameter() != null) ? input.getMethodParameter().getParameterName() : null;
		byte[] body = InvalidIdProblem.json(parameter, reason, exchange.getRequest().getPath().value())
			.getBytes(StandardCharsets.UTF_8);
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatus.BAD_REQUEST);
		response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
		DataBuffer buffer = response.bufferFactory().wrap(body);
		return response.writeWith(Mono.just(buffer));
	}

	@Override
	public int getOrder() {
		// Before Spring Boot's ErrorWebExceptionHandler (-1).
		return -2;
	}

}
