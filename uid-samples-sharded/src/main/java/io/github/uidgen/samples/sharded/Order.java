package io.github.uidgen.samples.sharded;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

/** An order: a MyBatis-Plus entity whose {@code ASSIGN_ID} key comes from uid. */
@TableName("t_order")
public class Order {

	@TableId(type = IdType.ASSIGN_ID)
	private Long id;

	private String item;

	public Order() {
	}

	public Order(String item) {
		this.item = item;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getItem() {
		return this.item;
	}

	public void setItem(String item) {
		this.item = item;
	}

}
