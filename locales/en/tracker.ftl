# Order status messages posted by the order tracker (one status message per order).

tracker-onramp-pending = ⏳ Waiting for your M-Pesa payment for your KES { $amount } purchase (order { $orderId }). Enter your M-Pesa PIN on the prompt on your phone.
tracker-onramp-paid = ✅ M-Pesa payment received for order { $orderId } (receipt { $receipt }). Sending your { $symbol } now…
tracker-onramp-done = 🎉 Done! We received your M-Pesa payment for your KES { $amount } purchase (receipt { $receipt }) and sent { $tokens } { $symbol } to your wallet { $wallet } on { $network }.
tracker-tx-hash = Transaction: { $hash }
tracker-explorer-button = View on the explorer
tracker-onramp-failed = ❌ Your M-Pesa payment for your KES { $amount } purchase (order { $orderId }) did not go through.
tracker-onramp-cancelled = ❌ The M-Pesa payment for your KES { $amount } purchase (order { $orderId }) was cancelled.

tracker-reason-insufficient-balance = Reason: there was not enough money in your M-Pesa account.
tracker-reason-cancelled = Reason: the M-Pesa prompt was cancelled.
tracker-reason-timeout = Reason: the M-Pesa prompt timed out before the PIN was entered.
tracker-reason-wrong-pin = Reason: the M-Pesa PIN was not accepted.
tracker-reason-limit = Reason: the amount is above an M-Pesa limit.
tracker-reason-unknown = M-Pesa did not give a reason.
tracker-reason-other = Reason given by M-Pesa: { $detail }

tracker-ticket-hint = If money left your account, open a refund ticket and our team will look into it.
tracker-ticket-button = Open a refund ticket
tracker-talk-button = 💬 Talk to a person

tracker-offramp-pending = ⏳ Sending KES { $amount } to { $phone } by M-Pesa (order { $orderId })…
tracker-offramp-done = ✅ KES { $amount } sent to { $name } ({ $phone }). M-Pesa receipt: { $receipt }.
tracker-offramp-done-noname = ✅ KES { $amount } sent to { $phone }. M-Pesa receipt: { $receipt }.
tracker-offramp-failed = ❌ The M-Pesa payout of KES { $amount } to { $phone } (order { $orderId }) failed.

tracker-escalated-onramp-horizon = ⚠️ Order { $orderId } is taking longer than it should. We have alerted our support team; they will check it and get back to you here. Please do not pay again.
tracker-escalated-offramp-horizon = ⚠️ The payout for order { $orderId } is taking longer than it should. We have alerted our support team; they will check it and get back to you here.
tracker-escalated-deposit = ⚠️ Your payment for order { $orderId } was received, but we could not confirm that your tokens were sent. Our support team has been alerted and will check it. Please do not pay again.

tracker-try-again-hint = No money was taken. You can try again when you are ready.
tracker-try-again-button = Try again
tracker-buy-again-button = Buy again
tracker-payout-ticket-hint = Your tokens are with the service. Open a refund ticket and our team will pay you out or return them.
tracker-payout-reason-cancelled = Reason: the payout was cancelled by M-Pesa.
tracker-payout-reason-timeout = Reason: M-Pesa did not confirm the payout in time.
tracker-payout-reason-limit = Reason: the amount is above an M-Pesa limit for the receiving number.
tracker-payout-reason-number = Reason: M-Pesa did not accept the receiving number.
