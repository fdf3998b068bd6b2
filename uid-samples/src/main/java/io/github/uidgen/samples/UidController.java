package io.github.uidgen.samples;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.text.UidFormat;
import io.github.uidgen.text.UidFormats;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves IDs over HTTP so that services in any language can use this application as their ID source.
 *
 * <p>IDs go out as decimal strings in JSON because a JavaScript number cannot hold every 64-bit value, or in any text
 * form of {@code uid.text.*} with {@code ?format=} ({@code radix62}, {@code readable}, {@code opaque}, ...).
 */
@RestController
@RequestMapping("/uid")
class UidController {

	/** The smallest batch a client may ask for. */
	static final int MIN_BATCH_SIZE = 1;

	/** The largest batch a client may ask for; bounds the work and the response size of one request. */
	static final int MAX_BATCH_SIZE = 10_000;

	private final UidGenerator uidGenerator;

	private final UidFormats formats;

	UidController(UidGenerator uidGenerator, UidFormats formats) {
		this.uidGenerator = uidGenerator;
		this.formats = formats;
	}

	@GetMapping(produces = MediaType.TEXT_PLAIN_VALUE)
	String uid(@RequestParam(name = "format", required = false) String format) {
		UidFormat form = form(format);
		return form.format(this.uidGenerator.getUID());
	}

	@GetMapping(path = "/batch", produces = MediaType.APPLICATION_JSON_VALUE)
	String[] batch(@RequestParam("size") int size, @RequestParam(name = "format", required = false) String format) {
		if (size < MIN_BATCH_SIZE || size > MAX_BATCH_SIZE) {
			throw new BatchSizeOutOfRangeException(size, MIN_BATCH_SIZE, MAX_BATCH_SIZE);
		}
		UidFormat form = form(format);
		String[] uids = new String[size];
		for (int i = 0; i < size; i++) {
			uids[i] = form.format(this.uidGenerator.getUID());
		}
		return uids;
	}

	/** The form asked for, or decimal; chosen before any ID is taken, so a bad name costs none. */
	private UidFormat form(String format) {
		if (format == null) {
			return this.formats.form(UidFormats.DECIMAL);
		}
		try {
			return this.formats.form(format.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new UnknownTextFormException(format, ex.getMessage(), this.formats.names());
		}
	}

}
