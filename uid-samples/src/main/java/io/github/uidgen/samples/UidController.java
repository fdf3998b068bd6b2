package io.github.uidgen.samples;

import io.github.uidgen.UidGenerator;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Serves IDs over HTTP so that services in any language can use this application as their ID source.
 *
 * <p>IDs go out as decimal strings in JSON because a JavaScript number cannot hold every 64-bit value.
 */
@RestController
@RequestMapping("/uid")
class UidController {

	/** The smallest batch a client may ask for. */
	static final int MIN_BATCH_SIZE = 1;

	/** The largest batch a client may ask for; bounds the work and the response size of one request. */
	static final int MAX_BATCH_SIZE = 10_000;

	private final UidGenerator uidGenerator;

	UidController(UidGenerator uidGenerator) {
		this.uidGenerator = uidGenerator;
	}

	@GetMapping(produces = MediaType.TEXT_PLAIN_VALUE)
	String uid() {
		return Long.toString(this.uidGenerator.getUID());
	}

	@GetMapping(path = "/batch", produces = MediaType.APPLICATION_JSON_VALUE)
	String[] batch(@RequestParam("size") int size) {
		if (size < MIN_BATCH_SIZE || size > MAX_BATCH_SIZE) {
			throw new BatchSizeOutOfRangeException(size, MIN_BATCH_SIZE, MAX_BATCH_SIZE);
		}
		String[] uids = new String[size];
		for (int i = 0; i < size; i++) {
			uids[i] = Long.toString(this.uidGenerator.getUID());
		}
		return uids;
	}

}
