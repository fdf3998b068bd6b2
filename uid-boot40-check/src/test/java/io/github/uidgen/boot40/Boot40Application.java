package io.github.uidgen.boot40;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.jackson.UidAsString;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application as Spring Boot 4.0's initializr makes it, with the uid starter and a controller returning an ID.
 */
@SpringBootApplication
class Boot40Application {

	@RestController
	static class OrderController {

		private final UidGenerator uids;

		OrderController(UidGenerator uids) {
			this.uids = uids;
		}

		@GetMapping("/orders/new")
		OrderView newOrder() {
			return new OrderView(this.uids.getUID(), 1);
		}

	}

	record OrderView(@UidAsString long id, long quantity) {
	}

}
