package io.github.uidgen.samples;

import io.github.uidgen.UidException;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;

/**
 * Turns bad requests to the ID endpoints into 400 answers that name the parameter, the value and the allowed
 * range (or forms), and a generator that cannot issue IDs into 503, so that a client never sees a bare 500.
 */
@RestControllerAdvice(assignableTypes = UidController.class)
class UidRequestErrors {

	private static final String SIZE = "size";

	private static final String RANGE = UidController.MIN_BATCH_SIZE + ".." + UidController.MAX_BATCH_SIZE;

	@ExceptionHandler
	ProblemDetail batchSizeOutOfRange(BatchSizeOutOfRangeException ex) {
		return badSize("Parameter '" + SIZE + "' must be between " + ex.getMin() + " and " + ex.getMax()
				+ " (inclusive), but was " + ex.getSize() + ".", Integer.toString(ex.getSize()));
	}

	@ExceptionHandler
	ProblemDetail missingParameter(MissingServletRequestParameterException ex) {
		return badSize("Parameter '" + ex.getParameterName() + "' is required: ask for " + RANGE
				+ " IDs, for example /uid/batch?size=100.", null);
	}

	@ExceptionHandler
	ProblemDetail notANumber(MethodArgumentTypeMismatchException ex) {
		String value = String.valueOf(ex.getValue());
		return badSize("Parameter '" + ex.getName() + "' must be a whole number between " + UidController.MIN_BATCH_SIZE
				+ " and " + UidController.MAX_BATCH_SIZE + ", but was '" + value + "'.", value);
	}

	@ExceptionHandler
	ProblemDetail unknownTextForm(UnknownTextFormException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST,
				"Parameter 'format': " + ex.getMessage() + ".");
		problem.setTitle("Unknown ID format");
		problem.setProperty("parameter", "format");
		problem.setProperty("allowed", String.join(", ", ex.getAvailable()));
		problem.setProperty("value", ex.getFormat());
		return problem;
	}

	@ExceptionHandler
	ProblemDetail generatorUnavailable(UidException ex) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE, ex.getMessage());
		problem.setTitle("No ID can be issued right now");
		return problem;
	}

	private static ProblemDetail badSize(String detail, String value) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
		problem.setTitle("Invalid batch size");
		problem.setProperty("parameter", SIZE);
		problem.setProperty("allowed", RANGE);
		if (value != null) {
			problem.setProperty("value", value);
		}
		return problem;
	}

}
