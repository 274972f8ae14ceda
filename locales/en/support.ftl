# Support: talking to a person, refund tickets, and the agents' case topics.

## Talking to a person (the user's side)

support-button-talk = 💬 Talk to a person
support-button-reply = ✍️ Reply to support
support-connected = 💬 You are now talking to our support team (case { $caseId }). Write your message here and a person will answer in this chat.
support-connected-order = 💬 You are now talking to our support team about order { $orderId } (case { $caseId }). Write what happened here and a person will answer in this chat.
support-recorded = 📝 We have recorded your request as case { $caseId }. A person from our team will reply in this chat, but it may take a while. Write the details here and we will add them to your case.
support-recorded-order = 📝 We have recorded your request about order { $orderId } as case { $caseId }. A person from our team will reply in this chat, but it may take a while. Write the details here and we will add them to your case.
support-relay-hint = To go back to the menu, send /menu or "menu". Your case stays open and our replies will still reach you here.
support-case-reopened = Your case { $caseId } has been reopened.
support-case-existing = Your case { $caseId } is already open.
support-case-new = Your earlier case was closed, so we opened a new one: { $caseId }.
support-relay-sent = ✓ Your message went to our support team.
support-relay-cut = Your message was long, so only the first part was sent. Please send the rest in another message.
support-relay-failed = Sorry, your message could not be passed on right now. Please try again in a moment.
support-open-failed = Sorry, we could not reach our support desk right now. Please try again in a few minutes.
support-text-only = Only text messages can be passed on to support. Please describe the problem in words.
support-relay-ended = You left the support chat. Your case stays open and our team's replies will still reach you here.
support-reply-prompt = Write your reply for our support team (case { $caseId }).
support-agent-message = 💬 Support: { $text }
support-resolved = ✅ Our support team closed your case: { $message }
support-resolved-order = ✅ Our support team closed your case about order { $orderId }: { $message }
support-resolved-hint = If something is still wrong, tap "Talk to a person" in the help menu or send /support.
support-reopened-by-agent = Our support team reopened your case { $caseId }. They will write to you here.
support-alerted = 🛟 We opened support case { $caseId } for order { $orderId }. A person from our team is checking it and will write to you here. To add details, tap "Talk to a person".
support-alerted-general = 🛟 We opened support case { $caseId }. A person from our team is checking it and will write to you here. To add details, tap "Talk to a person".
support-alerted-offline = 🛟 We recorded support case { $caseId } for order { $orderId }. A person from our team will contact you here, but it may take a while. To add details, tap "Talk to a person".
support-ticket-by-agent = 🎫 Our support team filed refund ticket { $ticketId } for order { $orderId }. We will tell you here when there is news.

## Refund tickets

support-ticket-ask-order = 🧾 Which order is this about? Type its order number (it starts with D- for purchases or WD- for sales). If you have no order number, tap "I have no order number".
support-ticket-button-no-order = I have no order number
support-ticket-bad-order = "{ $text }" does not look like an order number. Order numbers look like D-ab12c-3X or WD-ab12c-3X.
support-ticket-ask-description = In a few words, what went wrong with order { $orderId }? For example: "I paid but got no tokens".
# A sale's ticket (#25, journeys): its example is a payout that did not come.
support-ticket-ask-description-sale = In a few words, what went wrong with sale { $orderId }? For example: "I sent the tokens but the M-Pesa money never arrived".

support-ticket-button-default-description = Just file it: the order failed
support-ticket-description-short = Please write at least { $min } characters.
support-ticket-description-long = Please keep it under { $max } characters.
support-ticket-filing = ⏳ Filing a refund ticket for order { $orderId }…
support-ticket-filing-manual = ⏳ Filing your refund ticket…
support-ticket-wait = Your ticket is being filed; please wait a moment.
support-ticket-filed = 🎫 Refund ticket { $ticketId } is filed for order { $orderId }. Keep this number: our team will look into it and reply here.
support-ticket-existing = 🎫 Order { $orderId } already has refund ticket { $ticketId }. Our team is on it and will reply here.
support-ticket-filed-manual = 🎫 Refund ticket { $ticketId } is filed. Keep this number: our team will look into it and reply here.
support-ticket-next = If you want to add anything, talk to a person.
support-ticket-refused-onramp-order = The payment service found no failed purchase with the number { $orderId }, so it cannot take a refund ticket for it. Refunds by order number are only possible for purchases that failed or were cancelled.
support-ticket-refused-offramp-order = The payment service found no failed or pending sale with the number { $orderId }, so it cannot take a refund ticket for it.
support-ticket-refused-fields = The payment service says some ticket details are missing.
support-ticket-refused = The payment service did not accept the ticket. It said: { $reason }
support-ticket-unavailable = Sorry, the payment service could not be reached to file your ticket.
support-ticket-offer-person = If you believe this is wrong, or money left your account, talk to a person: we will check it with you.
support-ticket-cancelled = The refund ticket was not filed.
support-ticket-assets-unavailable = (We could not load the list of tokens, so you may have to type the token's address.)
support-ticket-choose = Please choose one of the options, or type your answer.
support-ticket-ask-side = Was it a purchase (you paid KES by M-Pesa) or a sale (you sent tokens)?
support-ticket-side-onramp = Purchase (M-Pesa to crypto)
support-ticket-side-offramp = Sale (crypto to M-Pesa)
support-ticket-ask-phone = Which M-Pesa number was used? (e.g. 0712 345 678)
support-ticket-button-saved-phone = Use { $phone }
support-ticket-bad-phone = "{ $phone }" is not a Kenyan mobile number. Please send it like 0712 345 678 or +254 712 345 678.
support-ticket-ask-chain = On which network were the tokens?
support-ticket-ask-symbol = Which token on { $network }? Choose one, or type its symbol.
support-ticket-bad-symbol = Please type a token symbol such as USDT.
support-ticket-ask-token-address = { $symbol } is not listed on { $network }. Please send the token's contract address.
support-ticket-bad-token-address = That is not a valid token address on { $network }. Please check it and send it again.
support-ticket-ask-wallet = Which wallet address on { $network } was used?
support-ticket-button-saved-wallet = Use { $address }
support-ticket-bad-wallet = That is not a valid wallet address on { $network }. Please check it and send it again.
support-ticket-bad-wallet-checksum = That address has a typo somewhere (its checksum does not match). Please copy it again from your wallet.
support-ticket-ask-amount = How many { $symbol } was it about? (e.g. 12.5)
support-ticket-bad-amount = Please send an amount above zero, like 12.5.
support-ticket-ask-manual-description = In a few words, what went wrong?
support-ticket-summary = Please check your refund ticket:
    • { $side ->
        [onramp] Purchase (M-Pesa to crypto)
       *[offramp] Sale (crypto to M-Pesa)
    }
    • M-Pesa number: { $phone }
    • Network: { $network }
    • Token: { $symbol } ({ $tokenAddress })
    • Wallet: { $wallet }
    • Amount: { $amount } { $symbol }
    • What happened: { $description }
support-ticket-button-file = ✅ File the ticket

## The agents' case topics (support chat)

support-card-title = 🆘 Case { $caseId } · { $status ->
        [open] OPEN
       *[closed] CLOSED
    }
support-card-reason = Reason: { support-reason }
support-card-channel = Channel: { $channel } · user { $user }
support-card-phone = Phone: { $phone }
support-card-reading = Language: { $locale ->
    [sw] Kiswahili
    [en] English
   *[other] not known yet
  } · Last read: { $read ->
    [template] template only (the whole reply goes when they write)
    [whole] whole message
   *[other] nothing from an agent yet
  }
support-card-order = Order: { $orderId } ({ $side ->
        [onramp] purchase
       *[offramp] sale
    })
support-card-order-none = Order: none given
support-card-state = Order state: { $status }
support-card-receipt = M-Pesa receipt: { $receipt }
support-card-wallet = Wallet: { $wallet }
support-card-error = Last error: { $error }
support-card-deposit = Crypto release: { $state }
support-card-history = History:
support-card-history-more = … { $count } earlier events
support-card-commands = Commands: /status [order] · /ticket [order|manual] · /resolve message · /reopen · /remind [minutes] · /cases
support-event = • { $time } { $what }

support-card-order-history = Order timeline:
support-order-created = order taken by the tracker
support-order-status = ramp status { $status }
support-order-status-receipt = ramp status { $status }, M-Pesa receipt { $receipt }
support-order-status-failed = ramp status { $status }: { support-order-failure }
support-order-failure = { $reason ->
        [insufficient-balance] not enough money on M-Pesa
        [cancelled] the M-Pesa prompt was cancelled
        [timeout] the M-Pesa prompt timed out
        [wrong-pin] the M-Pesa PIN was not accepted
        [limit] above an M-Pesa limit
        [other] a reason M-Pesa gave in its own words
       *[unknown] no reason given
    }
support-order-deposit-intent = crypto release started
support-order-deposit-sent = crypto sent: { $hash }
support-order-deposit-unknown = crypto release outcome unknown ({ $reason }), checking the deposit history
support-order-deposit-refused = crypto release refused by the ramp ({ $reason }), nothing sent
support-order-reconciled = crypto transfer found in the deposit history: { $hash }
support-order-escalated = handed to support: { support-reason }
support-order-final = final message posted to the user: { $outcome ->
        [success] done
        [failed] failed
        [cancelled] cancelled
        [escalated] handed to support
       *[other] { $outcome }
    }

support-reason = { $reason ->
        [horizon] the order is past its time limit
        [deposit_unknown] the crypto release could not be confirmed
        [deposit_refused] the crypto release was refused
        [sell_refused] a sale was refused after the tokens reached the chain
        [filing_unknown] a sale's filing outcome is unknown
        [stk_unknown] a buy's M-Pesa prompt may have been sent, but its order is unknown
        [undeliverable] a message could not reach the user on WhatsApp
        [user] the user asked for a person
        [refund_ticket] the user filed a refund ticket
       *[other] { $reason }
    }

support-event-opened = case opened: { support-reason }
support-event-escalated = escalated: { support-reason }
support-event-reopened = reopened by { $by ->
        [user] the user
        [system] the system
       *[other] agent { $by }
    }
support-event-user-message = user wrote: { $text }
support-event-agent-message = agent { $agent } wrote: { $text }
support-event-status = state checked by agent { $agent }: { $status }
support-event-ticket = ramp ticket { $ticketId } filed by { $by ->
        [user] the user
        [system] the system
       *[other] agent { $by }
    }
support-event-resolved = closed by agent { $agent }: { $text }
support-event-note = { $text }

support-topic-user-message = 👤 User: { $text }
support-topic-escalated = ⚠️ Escalated: { support-reason }
support-topic-escalated-detail = Detail: { $detail }
support-topic-status = 🔎 Order { $orderId } is { $status }.
support-topic-status-receipt = M-Pesa receipt: { $receipt }
support-topic-status-failed = Could not check the order: { $error }
support-topic-no-order = This case has no order, so there is nothing to check or file by order number.
support-topic-ticket = 🎫 Ramp ticket { $ticketId } filed for order { $orderId }; the user has been told.
support-topic-ticket-existing = 🎫 Order { $orderId } already has ramp ticket { $ticketId }.
support-topic-ticket-failed = The ramp did not take the ticket: { $reason }
support-topic-user-ticket = 🎫 The user filed ramp ticket { $ticketId } for this order.
support-topic-resolved = ✅ Closed by { $agent }. The user was told: { $message }
support-topic-reopened = 🔄 Case reopened by { $by ->
        [user] the user
        [system] the system
       *[other] agent { $by }
    }.
support-topic-already-open = This case is already open.
support-topic-already-closed = This case is already closed.
support-topic-not-agent = ⛔ Only support agents may act on cases. Your message was not passed on.
support-topic-closed = This case is closed, so your message was not passed on. Send /reopen first.
support-topic-resolve-usage = Write the message for the user after the command, e.g. /resolve Your refund was sent.
support-topic-non-text = Only text is passed on to the user.
support-topic-delivery-failed = Your message could not be delivered to the user.
support-topic-help = Commands in a case topic: /status [order] checks the order with the ramp now, /ticket [order] files the ramp ticket for the order (/ticket manual files the manual form from the order's facts), /resolve message closes the case and sends the message to the user, /reopen opens it again, /remind [minutes] checks the order again later, /cases lists the open cases. Any other text is passed on to the user. On a case marked "not the requester's order" nothing is filed; only /ticket not-their-order confirm files that order's ticket (its refund goes to the order's own number; the requester is not told the ticket number).

support-terminal-no-desk = Support: no support chat is configured (SUPPORT_CHAT_ID), so cases are only stored and logged.
support-ticket-not-owner = Order { $orderId } is not one you made here, so I can't file a refund ticket for it from this chat. I've passed your request to our support team (case { $caseId }); an agent will check it and reply here.
support-topic-ticket-not-owner = ⚠️ The user asked for a refund ticket for order { $orderId }, which is NOT their order (another user's, or not made through rampchat). No ticket was filed. Check by hand before acting.
support-card-not-owner = Order: { $orderId } ⚠️ not the requester's order (another user's, or not made here); its details are not shown
support-ticket-uncertain = I could not confirm that your refund ticket was filed: the service did not answer clearly. A person from our team will check it (case { $caseId }) and tell you here. Please do not file it again.
support-topic-ticket-uncertain = ⚠️ Refund ticket for order { $orderId } may or may not have been filed (the ramp answered: { $detail }). Check at the ramp before filing it again.

## The support desk as agents use it (issue #23)

support-relay-recorded = 📝 Added to your case { $caseId }. No support team is connected right now: a person will read it when one is.
support-relay-sent-case = ✓ Your message went to our support team (case { $caseId }). They will answer here.
support-topic-delivered = ✓ Delivered to the user.
support-topic-sent-template = 📨 WhatsApp's 24-hour window is closed: the user got your reply as the approved template, in { $locale ->
    [sw] Kiswahili
   *[en] English
  }. { $held ->
    [yes] The template could not carry all of it: the whole reply goes to them once, when they next write.
   *[no] The template carried all of it.
  }
support-topic-held-delivered = 📨 The user wrote again and got your whole reply then, in { $locale ->
    [sw] Kiswahili
   *[en] English
  }.
support-topic-not-delivered = ⚠️ Not delivered to the user: { $reason }
support-topic-user-ticket-manual = 🎫 The user filed ramp ticket { $ticketId } through the manual form (no order number).
support-topic-user-ticket-description = What the user wrote: { $text }
support-resolved-plain = ✅ Our support team closed your case.
support-resolved-order-plain = ✅ Our support team closed your case about order { $orderId }.
support-topic-order-not-users = ⚠️ Order { $orderId } is not one this user made here, so it was not linked and nothing was done with it.
support-topic-linked = 🔗 This case is now about order { $orderId }.
support-topic-status-message = The ramp says: { $message }
support-topic-ticket-manual-missing = The order facts a manual ticket needs (phone, amount, wallet, token) are not known for { $orderId }, so no manual ticket was filed. File it at the ramp by hand.
support-topic-ticket-busy = Another agent is filing the ticket for { $orderId } right now; its number will appear here.
support-topic-ticket-refused-recent = The ramp refused this ticket for { $orderId } { $seconds } s ago ({ $reason }); the next step is above. Nothing was filed again.
support-topic-next-pending = ⏭ Next: order { $orderId } is still pending, and the ramp takes a ticket by order number only once a purchase failed or was cancelled. Check again (🔎 Status), let me check in 30 minutes (⏰ Remind), or file a manual ticket with the order's facts (📝 Manual ticket) if the user's money is stuck.
support-topic-next-success = ⏭ Next: order { $orderId } succeeded at the ramp, so there is nothing to refund. Check with the user what they are missing (the receipt and the transaction are on the card).
support-topic-next-other = ⏭ Next: check order { $orderId } again (🔎 Status), let me check in 30 minutes (⏰ Remind), or file a manual ticket with the order's facts (📝 Manual ticket).
support-desk-button-status = 🔎 Status
support-desk-button-ticket = 🎫 Ticket
support-desk-button-resolve = ✅ Resolve
support-desk-button-reopen = 🔄 Reopen
support-desk-button-remind = ⏰ Remind in 30 min
support-desk-button-manual = 📝 Manual ticket
support-topic-resolved-plain = ✅ Closed by { $agent }. The user was told the case is closed.
support-topic-resolved-not-delivered = ✅ Closed by { $agent }. ⚠️ Not delivered to the user: { $reason }
support-topic-remind-set = ⏰ { $agent }: I will check the order again in { $minutes } minutes and post the answer here.
support-topic-remind-due = ⏰ Reminder for { $agent }:
support-cases-none = No open cases.
support-cases-title = 📋 Open cases, oldest first ({ $count }):
support-cases-line = • { $caseId } · { $orderId } · { support-reason } · open { $age } min · { $link }
support-card-money-buy = Paid: KES { $paid } · to receive { $tokens } { $symbol } on { $network }
support-card-money-buy-fee = Paid: KES { $paid } (KES { $amount } + fee KES { $fee }) · to receive { $tokens } { $symbol } on { $network }
support-card-money-sale = Sent: { $tokens } { $symbol } on { $network } · to receive KES { $kes } by M-Pesa
support-card-tx-kind = { $side ->
        [offramp] Escrow transaction
       *[onramp] Release transaction
    }: <a href="{ $url }">{ $hash }</a>
support-card-tx-kind-plain = { $side ->
        [offramp] Escrow transaction
       *[onramp] Release transaction
    }: { $hash }
support-card-ticket-state = Ramp ticket: { $ticketId } · filed by { $by ->
        [user] the user
        [system] the system
       *[other] { $by }
    } (the ramp shows no ticket states: follow it up there)
support-card-tracker-stage = Tracker: { $stage }, { $polls } status checks
support-card-told = 🗣 The user was last told:
support-card-next = ⏭ Next: { $step ->
        [closed] nothing; /reopen if the user comes back.
        [ask-order] ask the user for the order number (D-… or WD-…); typing it links the case.
        [not-owner] this order is not the user's: check by hand before acting. A ticket only with /ticket not-their-order confirm (its refund goes to the order's own number; the user is not told it).
        [release-unknown] the crypto release is unconfirmed: check the wallet on the explorer before anything else.
        [follow-ticket] follow the ticket up at the ramp; /resolve with the outcome when the refund is sent.
        [file-ticket] file the refund ticket (🎫 Ticket) and tell the user.
        [check-release] the payment succeeded but no release is known: check the wallet on the explorer.
        [success] the order succeeded: ask the user what is missing.
        [pending] the order is still pending: check again (🔎 Status) or /remind 30.
       *[check-status] check the order now (🔎 Status).
    }
support-order-payout-failed = ramp status { $status }: { $reason ->
        [timeout] the M-Pesa payout timed out
        [cancelled] the payout was cancelled
        [limit] the payout was above an M-Pesa limit
        [number] the phone number cannot receive M-Pesa
        [other] a reason M-Pesa gave in its own words
       *[unknown] no reason given
    }
support-event-resolved-plain = closed by agent { $agent }
support-button-not-agent = Only support agents may act on cases.

## Limits on costly support actions (issue #24)

support-limited = ⏳ You have opened several support cases lately, so I did not open another one. You can try again in about { $unit ->
        [hours] { $hours } h
       *[minutes] { $minutes } min
    }. A case you already have open still reaches our team: just write in it.
support-ticket-limited = ⏳ You have filed several refund tickets lately, so I did not file this one. You can try again in about { $unit ->
        [hours] { $hours } h
       *[minutes] { $minutes } min
    }. If your money is stuck, write to our team in the case you already have open.
support-topic-ticket-not-owner-refused = ⚠️ No ticket filed: order { $orderId } is NOT this user's order (another user's, or not made here). A ticket for it is that order owner's refund, to their number. Only after checking by hand, file it anyway with: /ticket { $override } (the user will not be told its number).
support-topic-ticket-not-owner-filed = 🎫 Ticket { $ticketId } filed for order { $orderId } by { $agent }, overriding the warning that it is NOT this user's order. The user was not told its number.

# Recovery could not put a support conversation back after a service interruption.
support-case-lost-after-outage = ⚠️ After a service interruption, your conversation with our support team could not be brought back. Please send /support and tell us again what you need; we are sorry for the trouble.
