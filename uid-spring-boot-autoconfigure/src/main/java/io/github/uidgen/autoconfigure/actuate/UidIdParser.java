package io.github.uidgen.autoconfigure.actuate;

import io.github.uidgen.DecodedUid;
import io.github.uidgen.UidException;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.ErrorDescriptor;
import io.github.uidgen.autoconfigure.actuate.UidEndpoint.ParsedUid;
import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;
import io.github.uidgen.text.UidTextException;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The {@code parse} operation of the {@code uid} endpoint: reads an ID in any of the application's text forms and
 * decodes it, answering 400 with a message for bad input and 403 for an opaque text unless that is switched on.
 */
final class UidIdParser {

	private static final int STATUS_FORBIDDEN = 403;

	private static final String OPAQUE_OFF = "This endpoint does not decode opaque IDs: that would turn any opaque "
			+ "text back into its ID, time and worker for whoever reaches it. Set " + UidEndpoint.PARSE_OPAQUE
			+ "=true where only operators reach the endpoint (Spring Security, or the management port on a private "
			+ "address)";

	private static final int MAX_ECHO = 40;

	private final UidGenerator generator;

	private final @Nullable UidFormats formats;

	private final boolean parseOpaque;

	private final UidFleetReader fleetReader;

	UidIdParser(UidGenerator generator, @Nullable UidFormats formats, boolean parseOpaque,
			UidFleetReader fleetReader) {
		this.generator = generator;
		this.formats = formats;
		this.parseOpaque = parseOpaque;
		this.fleetReader = fleetReader;
	}

	/** Answers {@code GET /actuator/uid/{operation}?uid=…&form=…}, as {@link UidEndpoint#parse} documents. */
	WebEndpointResponse<Object> parse(String operation, @Nullable String uid, @Nullable String form) {
		if (!UidEndpoint.PARSE.equals(operation)) {
			return error(WebEndpointResponse.STATUS_NOT_FOUND, "Not Found", "Unknown operation '" + echo(operation)
					+ "'; to decode an ID, call /actuator/uid/parse?uid=<ID>; to list the fleet, /actuator/uid/fleet");
		}
		if (uid == null) {
			return badRequest("The uid parameter is missing; call /actuator/uid/parse?uid=<ID>");
		}
		String text = uid.strip();
		if (text.isEmpty()) {
			return badRequest("The uid parameter is empty; pass an ID, such as ?uid=123456789");
		}
		if (form != null && !form.isBlank()) {
			if (this.formats == null) {
				return badRequest("Text forms other than decimal are not configured; leave out the form parameter");
			}
			UidFormat named;
			try {
				named = this.formats.form(form.strip());
			}
			catch (IllegalArgumentException ex) {
				return badRequest(ex.getMessage());
			}
			if (named.isKeyed() && !this.parseOpaque) {
				return error(STATUS_FORBIDDEN, "Forbidden", OPAQUE_OFF);
			}
			return parseAs(named, text);
		}
		UidFormat preferred = (this.formats != null) ? this.formats.defaultForm() : null;
		if (preferred == null || UidFormats.DECIMAL.equals(preferred.name())) {
			return parseDecimal(text, null);
		}
		if (preferred.isKeyed() && !this.parseOpaque) {
			return parseDecimal(text, OPAQUE_OFF);
		}
		try {
			return decoded(preferred.parse(text), preferred.name());
		}
		catch (UidTextException ex) {
			if (preferred.isKeyed()) {
				// The keyed form's refusal says nothing of the layout; the decimal one must not say its range either.
				return parseDecimal(text, ex.getMessage() + "; nor is it a decimal ID of this service", false);
			}
			return parseDecimal(text, ex.getMessage());
		}
	}

	private WebEndpointResponse<Object> parseAs(UidFormat form, String text) {
		long value;
		try {
			value = form.parse(text);
		}
		catch (UidTextException ex) {
			return badRequest(ex.getMessage());
		}
		return decoded(value, form.name());
	}

	/** Today's decimal reading; {@code notPreferred} says why the default form did not read the text first. */
	private WebEndpointResponse<Object> parseDecimal(String text, @Nullable String notPreferred) {
		return parseDecimal(text, notPreferred, true);
	}

	/** Reads decimal; {@code notPreferred} is the whole answer to a text that is not decimal unless {@code explained}. */
	private WebEndpointResponse<Object> parseDecimal(String text, @Nullable String notPreferred, boolean explained) {
		long value;
		try {
			value = Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			if (!explained) {
				return badRequest(notPreferred);
			}
			String decimal = isInteger(text) ? "uid " + echo(text) + " is out of range: IDs of this generator lie "
					+ "between 0 and " + maxUid() : "uid '" + echo(text) + "' is not a decimal number";
			return badRequest((notPreferred != null) ? notPreferred + "; nor is it decimal: " + decimal : decimal);
		}
		return decoded(value, UidFormats.DECIMAL);
	}

	private WebEndpointResponse<Object> decoded(long value, String form) {
		try {
			DecodedUid decoded = this.generator.decode(value);
			IssuerLookup.IssuedBy issuedBy = new IssuerLookup(this.fleetReader, this.generator.status().worker())
				.issuerOf(decoded);
			return new WebEndpointResponse<>(new ParsedUid(Long.toString(decoded.uid()),
					decoded.timestamp().toString(), decoded.datacenterId(), decoded.workerId(), decoded.sequence(),
					form, issuedBy));
		}
		catch (UidException ex) {
			return badRequest(ex.getMessage());
		}
	}

	/** The largest ID of the generator's layout; a generator without a layout (segment) issues plain longs. */
	private long maxUid() {
		UidLayout layout = this.generator.status().layout();
		return (layout != null) ? layout.maxUid() : Long.MAX_VALUE;
	}

	private static boolean isInteger(String text) {
		int start = (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
		if (start == text.length()) {
			return false;
		}
		for (int i = start; i < text.length(); i++) {
			if (!Character.isDigit(text.charAt(i))) {
				return false;
			}
		}
		return true;
	}

	/** Repeats caller input in a message, cut short so a huge parameter does not make a huge answer. */
	private static String echo(String text) {
		return (text.length() <= MAX_ECHO) ? text : text.substring(0, MAX_ECHO) + "...";
	}

	private static WebEndpointResponse<Object> badRequest(String message) {
		return error(WebEndpointResponse.STATUS_BAD_REQUEST, "Bad Request", message);
	}

	private static WebEndpointResponse<Object> error(int status, String error, String message) {
		return new WebEndpointResponse<>(new ErrorDescriptor(status, error, message), status);
	}

}
