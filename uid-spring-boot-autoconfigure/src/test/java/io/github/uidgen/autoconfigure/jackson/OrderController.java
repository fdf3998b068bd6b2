package io.github.uidgen.autoconfigure.jackson;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.jackson.UidAsString;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A controller as an application would write it: an order view whose ID is annotated and whose quantity is not.
 */
@RestController
class OrderController {

	private final UidGenerator uids;

	OrderController(UidGenerator uids) {
		this.uids = uids;
	}

	@GetMapping("/orders/new")
	OrderView newOrder() {
		return new OrderView(this.uids.getUID(), 3, "book");
	}

	@PostMapping("/orders/echo")
	OrderView echo(@RequestBody OrderView order) {
		return order;
	}

	record OrderView(@UidAsString long id, long quantity, String item) {
	}

}
