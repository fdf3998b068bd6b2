package io.github.uidgen.baseline;

import java.util.concurrent.atomic.AtomicLong;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers {@code GET /uid} as the sample does, with a number from a counter instead of a generator: unique only within
 * this process, which is all the benchmark's first request needs.
 */
@RestController
class CounterController {

	private final AtomicLong counter = new AtomicLong();

	@GetMapping(path = "/uid", produces = MediaType.TEXT_PLAIN_VALUE)
	String uid() {
		return Long.toString(this.counter.incrementAndGet());
	}

}
