package io.github.uidgen.autoconfigure.text;

import java.util.List;

import io.github.uidgen.UidGenerator;
import io.github.uidgen.jackson.UidAsString;
import io.github.uidgen.jackson.UidAsString.Form;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.data.jdbc.autoconfigure.DataJdbcRepositoriesAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Spring MVC, Jackson and uid from auto-configuration, with a controller that takes and gives IDs as text.
 */
@SpringBootApplication(proxyBeanMethods = false,
		exclude = { DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class,
				HibernateJpaAutoConfiguration.class, DataJdbcRepositoriesAutoConfiguration.class })
class TextIdsTestApplication {

	@RestController
	static class OrderController {

		private final UidGenerator uids;

		OrderController(UidGenerator uids) {
			this.uids = uids;
		}

		@GetMapping("/orders/new")
		OrderView newOrder() {
			long id = this.uids.getUID();
			return new OrderView(id, id);
		}

		@GetMapping("/orders/{number}")
		String byNumber(@PathVariable @UidAsString(value = Form.OPAQUE, prefix = "ORD_") long number) {
			return Long.toString(number);
		}

		@GetMapping("/orders")
		String byId(@RequestParam @UidAsString long id) {
			return Long.toString(id);
		}

		@GetMapping("/secret/{id}")
		String bySecret(@PathVariable @UidAsString(Form.OPAQUE) Long id) {
			return Long.toString(id);
		}

		@GetMapping("/secrets")
		String bySecrets(@RequestParam @UidAsString(Form.OPAQUE) List<Long> ids) {
			return ids.toString();
		}

	}

	record OrderView(@UidAsString long id, @UidAsString(value = Form.OPAQUE, prefix = "ORD_") long number) {
	}

}
