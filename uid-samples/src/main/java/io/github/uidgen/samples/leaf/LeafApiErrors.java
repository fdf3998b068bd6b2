package io.github.uidgen.samples.leaf;

import io.github.uidgen.InvalidSettingException;
import io.github.uidgen.UidException;
import io.github.uidgen.segment.jdbc.LeafAllocRowException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * What Leaf answers with a negative ID (and a 500), answered with a status that says what went wrong and a problem
 * detail that says how to fix it: 404 for a tag without a {@code leaf_alloc} row or a mode the service does not hand
 * out, 400 for a key or ID that cannot be one, 503 while no ID can be issued. Never a number with 200.
 */
@RestControllerAdvice(assignableTypes = LeafApiController.class)
class LeafApiErrors {

	@ExceptionHandler
	ProblemDetail unknownTag(LeafAllocRowException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
		problem.setTitle("No usable leaf_alloc row for this key");
		problem.setProperty("key", ex.getTag());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail modeNotServed(LeafModeNotServedException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, ex.getMessage());
		problem.setTitle("Not handed out by this ID service");
		return problem;
	}

	@ExceptionHandler
	ProblemDetail invalidKey(InvalidSettingException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Invalid key '"
				+ ex.getValue() + "': " + ex.getFix() + ".");
		problem.setTitle("Invalid key");
		problem.setProperty("key", String.valueOf(ex.getValue()));
		return problem;
	}

	@ExceptionHandler
	ProblemDetail invalidId(InvalidSnowflakeIdException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, ex.getMessage());
		problem.setTitle("Invalid snowflakeId");
		problem.setProperty("parameter", "snowflakeId");
		problem.setProperty("value", ex.getValue());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail missingId(MissingServletRequestParameterException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, "Parameter '"
				+ ex.getParameterName() + "' is required, for example /decodeSnowflakeId?snowflakeId=1234567890.");
		problem.setTitle("Missing snowflakeId");
		problem.setProperty("parameter", ex.getParameterName());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail unavailable(UidException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
		problem.setTitle("No ID can be issued right now");
		return problem;
	}

}
