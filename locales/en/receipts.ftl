# Receipts: a finished buy or sale as one picture (src/receipts), its lines, and why one is refused.

receipts-button = 🧾 Receipt
# Under /history: the receipt of one completed order there.
receipts-button-order = 🧾 Receipt { $orderId }
receipts-title = { $side ->
    [sell] Receipt · crypto sold for M-Pesa
   *[buy] Receipt · crypto bought with M-Pesa
}
# One line of the receipt: its label (selected by key) and its value, already formatted.
receipts-label = { $key ->
    [paid] You paid
    [received] You received
    [sent] You sent
    [network] Network
    [fee] Fee (included)
    [mpesa] M-Pesa code
    [hash] Transaction
    [order] Order
   *[date] Date
}
receipts-row = { receipts-label }: { $value }
receipts-scan = Scan to see the transaction on the explorer
receipts-footer = rampchat · time in Nairobi (EAT, UTC+3)
receipts-caption = 🧾 Your receipt for order { $orderId }. Keep it or share it.
receipts-ask = Which order? Tap 🧾 Receipt under a finished order, or type /receipt and the order id (/history lists them).
receipts-unknown = I can't find an order { $orderId } of yours. A receipt is only for your own orders: /history lists them.
receipts-unfinished = Order { $orderId } is not finished yet: its receipt is ready once the money has moved.
receipts-failed = Order { $orderId } did not go through: no money moved, so there is no receipt. /history shows what became of it.
receipts-draw-failed = The receipt could not be made just now. Please try again in a moment.
