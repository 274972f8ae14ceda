# Your own orders (made through rampchat), newest first, with what became of each.

history-own-title = 🧾 Your orders:
history-own-empty = You have no orders yet. Orders you make here (buy or sell) are listed with what became of them.
history-buy-completed = { $date } · Bought { $crypto } for { history-buy-amount } on { $network } ✅ completed (order { $orderId }, M-Pesa { $receipt }, transaction { $hash })
history-buy-failed = { $date } · Buy of { $crypto } for { history-buy-amount } ❌ failed: the M-Pesa payment did not go through, no tokens were sent (order { $orderId })
history-buy-cancelled = { $date } · Buy of { $crypto } for { history-buy-amount } ✖️ cancelled: no money was taken, no tokens were sent (order { $orderId })
history-buy-pending = { $date } · Buy of { $crypto } for { history-buy-amount } ⏳ still in progress (order { $orderId })
history-buy-support = { $date } · Buy of { $crypto } for { history-buy-amount } 🧑‍💼 with our support team (order { $orderId })
history-sell-completed = { $date } · Sold { $crypto } for { $kes } ✅ paid out (order { $orderId }, M-Pesa { $receipt })
history-sell-failed = { $date } · Sale of { $crypto } for { $kes } ❌ the payout failed (order { $orderId }); for your refund, open a ticket: /ticket { $orderId }
history-sell-cancelled = { $date } · Sale of { $crypto } for { $kes } ✖️ the payout was cancelled (order { $orderId }); for your refund, open a ticket: /ticket { $orderId }
history-sell-pending = { $date } · Sale of { $crypto } for { $kes } ⏳ payout still in progress (order { $orderId })
history-sell-support = { $date } · Sale of { $crypto } for { $kes } 🧑‍💼 with our support team (order { $orderId })
# A buy's amount as the chat said it, then the fee and the total paid (#25, journeys).
history-buy-amount = { $fee ->
        [none] { $amount }
       *[other] { $amount } + fee { $fee } = { $total }
    }
history-page = Page { $page } of { $pages }
history-button-previous = ◀️ Previous
history-button-next = Next ▶️
history-button-statement = 📄 Monthly statement
