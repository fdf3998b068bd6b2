package io.github.uidgen.autoconfigure.jackson;

import java.util.List;

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

	@GetMapping("/orders/batch")
	BatchView batch() {
		return new BatchView(List.of(this.uids.getUID(), this.uids.getUID()), 2);
	}

	@PostMapping("/orders/batch/echo")
	BatchView echo(@RequestBody BatchView batch) {
		return batch;
	}

	record BatchView(@UidAsString List<Long> ids, long count) {
	}

	record OrderView(@UidAsString long id, long quantity, String item) {
	}

}
